import { type Envelope, notFound, type Recorded } from '../../core/index.js';
import { sourceOf, targetOf, wireMessage, wireRatedMessage, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { feedbackRoutes } from '../contracts/feedback.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// give_feedback, message ratings and conversation state (contracts/feedback.ts).

/** The rating a rating command is about: the caller's, of one feedback type, on one message. */
function ratingOf(
  { threadId, messageId }: { threadId: string; messageId: string },
  feedbackType: string,
) {
  return { thread_id: threadId, message_id: messageId, feedback_type: feedbackType };
}

export const registerFeedback = bindRoutes(feedbackRoutes, {
  giveFeedback: async ({ body, request, deps }) => {
    const { feedbackType, target, value, source, sourceLabel } = body;
    const core = targetOf(target);
    const caller = callerOf(request);
    let thread: string | undefined;
    if (caller.principal.kind === 'agent') {
      thread =
        'thread_id' in core
          ? core.thread_id
          : core.kind === 'turn'
            ? (await deps.store.run(caller.workspaceId, core.run_id))?.thread_id
            : undefined;
      if (thread === undefined) {
        throw refuse({
          type: 'forbidden',
          message: "an agent key gives feedback on its thread's turns and messages",
        });
      }
    }
    const outcome = await execute(deps, request, actorOf(caller.principal, thread), {
      type: 'give_feedback',
      feedback_type: feedbackType,
      target: core,
      value,
      ...(source ? { source: sourceOf(source) } : {}),
      ...(sourceLabel ? { source_label: sourceLabel } : {}),
    });
    return written(outcome.events);
  },

  rateMessage: async ({ params, body, request, deps }) => {
    const outcome = await execute(deps, request, actorOf(callerOf(request).principal), {
      type: 'rate_message',
      ...ratingOf(params, body.feedbackType),
      value: body.value,
    });
    return {
      ratedMessage: ratedMessageOf(outcome),
      isUpdate: outcome.is_update ?? false,
    };
  },

  deleteRating: async ({ params, query, request, deps }) => {
    const outcome = await execute(deps, request, actorOf(callerOf(request).principal), {
      type: 'delete_rating',
      ...ratingOf(params, query.feedbackType),
    });
    return {
      ...(outcome.removed ? { removed: true as const } : {}),
      ratedMessage: ratedMessageOf(outcome),
    };
  },

  conversation: async ({ params: { threadId }, request, deps }) => {
    const conversation = await deps.store.conversation(callerOf(request).workspaceId, threadId);
    if (conversation === null) throw refuse(notFound('thread', threadId));
    return {
      threadId,
      messages: conversation.map((message) =>
        wireMessage(
          message,
          message.role === 'assistant' ? Object.values(message.feedback ?? {}).flat() : undefined,
        ),
      ),
    };
  },
});

/** The rated message a rating's command always records, in the wire's words. */
const ratedMessageOf = (outcome: Recorded<Envelope>) =>
  wireRatedMessage(outcome.rated_message as NonNullable<typeof outcome.rated_message>);

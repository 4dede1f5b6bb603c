import { z } from 'zod';
import { type Envelope, notFound, type Recorded } from '../../core/index.js';
import {
  SourceName,
  sourceOf,
  targetOf,
  WireMessage,
  WireRatedMessage,
  WireTarget,
  Written,
  wireMessage,
  wireRatedMessage,
  written,
} from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { defineRoutes } from '../contracts/contract.js';
import { ThreadParams } from '../contracts/params.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// give_feedback (docs/specification.md#giving-feedback), and message ratings and conversation
// state (docs/specification.md#message-ratings).

const id = z.string().min(1);
const value = z.record(z.string(), z.unknown());

export const GiveFeedbackBody = z.strictObject({
  feedbackType: id,
  target: WireTarget,
  value: value.default({}),
  source: SourceName.optional(),
  sourceLabel: z.string().min(1).optional(),
});
export const RateMessageBody = z.strictObject({ feedbackType: id, value: value.default({}) });
export const RateMessageReply = z.object({ ratedMessage: WireRatedMessage, isUpdate: z.boolean() });
export const DeleteRatingQuery = z.object({ feedbackType: id });
export const DeleteRatingReply = z.object({
  removed: z.literal(true).optional(),
  ratedMessage: WireRatedMessage,
});
export const ConversationReply = z.object({ threadId: z.string(), messages: z.array(WireMessage) });

const ratingPath = '/v1/threads/:threadId/messages/:messageId/rating';
const ratingParams = z.object({ threadId: id, messageId: id });

export const feedbackRoutes = defineRoutes({
  giveFeedback: {
    method: 'POST',
    path: '/v1/feedback',
    allow: ['system', 'agent', 'evaluator'],
    tags: ['feedback'],
    summary: "Give feedback on a turn, message, artifact version or thread as the key's principal",
    description:
      'Users rate through the rating route and reviewers through /v1/reviews, so their ' +
      'feedback is serialized per target.',
    body: GiveFeedbackBody,
    answers: { 201: Written },
  },
  rateMessage: {
    method: 'PUT',
    path: ratingPath,
    allow: ['user'],
    tags: ['ratings'],
    summary: "Create or replace the caller's own rating of an assistant message",
    params: ratingParams,
    body: RateMessageBody,
    answers: { 200: RateMessageReply },
  },
  deleteRating: {
    method: 'DELETE',
    path: ratingPath,
    allow: ['user'],
    tags: ['ratings'],
    summary: "Remove the caller's own rating; others' stay. An absent rating is a success",
    description: '`removed` is omitted when there was nothing to remove, which means false.',
    params: ratingParams,
    query: DeleteRatingQuery,
    answers: { 200: DeleteRatingReply },
  },
  conversation: {
    method: 'GET',
    path: '/v1/threads/:threadId/conversation',
    allow: ['system', 'admin', 'agent', 'reviewer', 'user'],
    tags: ['ratings'],
    summary: "The thread's messages, each assistant message with its feedback",
    params: ThreadParams,
    answers: { 200: ConversationReply },
  },
});

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

import { z } from 'zod';
import { notFound } from '../../core/index.js';
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
import { refusalResponses, refuse } from '../errors.js';
import { callerOf, execute, type Register } from './context.js';

// give_feedback (docs/specification.md#giving-feedback), and message ratings and conversation
// state (docs/specification.md#message-ratings).

const id = z.string().min(1);
const value = z.record(z.string(), z.unknown());

// Each route's body and answer, named so that the HTTP client's types are these very schemas.
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

export const registerFeedback: Register = (api, deps) => {
  api.post('/v1/feedback', {
    config: { allow: ['system', 'agent', 'evaluator'] },
    schema: {
      tags: ['feedback'],
      summary:
        "Give feedback on a turn, message, artifact version or thread as the key's principal",
      description:
        'Users rate through the rating route and reviewers through /v1/reviews, so their ' +
        'feedback is serialized per target.',
      body: GiveFeedbackBody,
      response: { 201: Written, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { feedbackType, target, value, source, sourceLabel } = request.body;
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
      return reply.code(201).send(written(outcome.events));
    },
  });

  const ratingPath = '/v1/threads/:threadId/messages/:messageId/rating';
  const ratingParams = z.object({ threadId: id, messageId: id });

  api.put(ratingPath, {
    config: { allow: ['user'] },
    schema: {
      tags: ['ratings'],
      summary: "Create or replace the caller's own rating of an assistant message",
      params: ratingParams,
      body: RateMessageBody,
      response: { 200: RateMessageReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { threadId, messageId } = request.params;
      const outcome = await execute(deps, request, actorOf(callerOf(request).principal), {
        type: 'rate_message',
        thread_id: threadId,
        message_id: messageId,
        feedback_type: request.body.feedbackType,
        value: request.body.value,
      });
      return {
        ratedMessage: wireRatedMessage(
          outcome.rated_message as NonNullable<typeof outcome.rated_message>,
        ),
        isUpdate: outcome.is_update ?? false,
      };
    },
  });

  api.delete(ratingPath, {
    config: { allow: ['user'] },
    schema: {
      tags: ['ratings'],
      summary: "Remove the caller's own rating; others' stay. An absent rating is a success",
      description: '`removed` is omitted when there was nothing to remove, which means false.',
      params: ratingParams,
      querystring: DeleteRatingQuery,
      response: { 200: DeleteRatingReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { threadId, messageId } = request.params;
      const outcome = await execute(deps, request, actorOf(callerOf(request).principal), {
        type: 'delete_rating',
        thread_id: threadId,
        message_id: messageId,
        feedback_type: request.query.feedbackType,
      });
      return {
        ...(outcome.removed ? { removed: true as const } : {}),
        ratedMessage: wireRatedMessage(
          outcome.rated_message as NonNullable<typeof outcome.rated_message>,
        ),
      };
    },
  });

  api.get('/v1/threads/:threadId/conversation', {
    config: { allow: ['system', 'admin', 'agent', 'reviewer', 'user'] },
    schema: {
      tags: ['ratings'],
      summary: "The thread's messages, each assistant message with its feedback",
      params: z.object({ threadId: id }),
      response: { 200: ConversationReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { threadId } = request.params;
      const conversation = await deps.store.conversation(callerOf(request).workspaceId, threadId);
      if (conversation === null) {
        throw refuse(notFound('thread', threadId));
      }
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
};

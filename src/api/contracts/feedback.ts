import { z } from 'zod';
import {
  SourceName,
  WireMessage,
  WireRatedMessage,
  WireTarget,
  Written,
} from '../../wire/entities.js';
import { defineRoutes } from './contract.js';
import { ThreadParams } from './params.js';

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

import { z } from 'zod';
import { ReviewQueueSettingsInput } from '../../config/index.js';
import { Id } from '../../core/index.js';
import { RoleName, WireRun, WireTarget, Written } from '../../wire/entities.js';
import { QueueProgress, ReviewerProgress, WireReviewQueue } from '../../wire/review-queues.js';
import { OPERATORS } from './callers.js';
import { defineRoutes } from './contract.js';
import { QueueParams } from './params.js';

// Review queues (docs/api.md#review-queues): listed with their progress, read with each
// reviewer's, set and archived (the system's and the admin's, recorded in the workspace's log as
// `set_review_queue`), and filled by hand, with targets or a filter applied here, on the server.

const readers = ['system', 'admin', 'reviewer'] as const;

export { QueueParams };
export const ListQueuesQuery = z.object({ includeArchived: z.stringbool().default(false) });
export const QueueWithProgress = WireReviewQueue.extend({ progress: QueueProgress });
export const QueuesReply = z.object({ queues: z.array(QueueWithProgress) });
export const QueueReply = z.object({
  queue: WireReviewQueue,
  progress: QueueProgress,
  reviewers: z.array(ReviewerProgress),
});
export const SetQueueBody = ReviewQueueSettingsInput;
export const QueueWritten = Written.extend({ queue: WireReviewQueue });

const time = z.iso.datetime({ offset: true });
export const ItemFilter = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('turn'),
    statuses: z.array(WireRun.shape.status).min(1).optional(),
    threadId: Id.optional(),
    startedFrom: time.optional(),
    startedTo: time.optional(),
  }),
  z.strictObject({
    kind: z.literal('message'),
    roles: z.array(RoleName).min(1).default(['ROLE_ASSISTANT']),
    threadId: Id.optional(),
    runId: Id.optional(),
  }),
  z.strictObject({
    kind: z.literal('artifact'),
    artifactKinds: z.array(Id).min(1).optional(),
    latestOnly: z.boolean().default(false),
    createdFrom: time.optional(),
    createdTo: time.optional(),
  }),
  z.strictObject({
    kind: z.literal('thread'),
    createdFrom: time.optional(),
    createdTo: time.optional(),
  }),
]);
export const EnqueueBody = z.union([
  z.strictObject({ targets: z.array(WireTarget).min(1).max(1000) }),
  z.strictObject({ filter: ItemFilter, limit: z.int().min(1).optional() }),
]);
export const EnqueueReply = z.object({
  added: z.int(),
  alreadyQueued: z.int(),
  /** For targets given by hand: each one's item, in the order given. */
  items: z
    .array(z.object({ itemId: z.string(), target: WireTarget, added: z.boolean() }))
    .optional(),
});

export const reviewQueueRoutes = defineRoutes({
  reviewQueues: {
    method: 'GET',
    path: '/v1/review-queues',
    allow: readers,
    tags: ['review queues'],
    summary: 'The review queues in force in this workspace, each with its progress',
    query: ListQueuesQuery,
    answers: { 200: QueuesReply },
  },
  reviewQueue: {
    method: 'GET',
    path: '/v1/review-queues/:queueId',
    allow: readers,
    tags: ['review queues'],
    summary: 'A review queue, its progress and each reviewer’s',
    params: QueueParams,
    answers: { 200: QueueReply },
  },
  setReviewQueue: {
    method: 'PUT',
    path: '/v1/review-queues/:queueId',
    allow: OPERATORS,
    tags: ['review queues'],
    summary:
      "Set this workspace's review queue whole (a new one, or one in force; an archived one is restored)",
    params: QueueParams,
    body: SetQueueBody,
    answers: { 200: QueueWritten },
  },
  archiveReviewQueue: {
    method: 'DELETE',
    path: '/v1/review-queues/:queueId',
    allow: OPERATORS,
    tags: ['review queues'],
    summary:
      'Archive a review queue: it keeps its items and settings, takes no new ones and hands out none',
    params: QueueParams,
    answers: { 200: QueueWritten },
  },
  enqueue: {
    method: 'POST',
    path: '/v1/review-queues/:queueId/items',
    allow: OPERATORS,
    tags: ['review queues'],
    summary: 'Put targets in a review queue: a list, or every target a filter selects',
    description:
      'Each target is queued once per queue: one already queued (by hand or by a routing ' +
      'rule) is counted in `alreadyQueued`. A filter is applied on the server to the whole ' +
      'workspace (at most `limit` targets); a target that does not exist refuses the list.',
    params: QueueParams,
    body: EnqueueBody,
    answers: { 200: EnqueueReply },
  },
});

import { z } from 'zod';
import { ReviewQueueSettingsInput, reviewQueueOf } from '../../config/index.js';
import {
  Id,
  invalidState,
  notFound,
  participantOf,
  type ReviewQueue,
  summaryOf,
  Target,
  validationFailed,
} from '../../core/index.js';
import type { ReviewTargetFilter } from '../../store/index.js';
import {
  RoleName,
  roleOf,
  targetOf,
  WireRun,
  WireTarget,
  Written,
  wireTarget,
  written,
} from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import {
  QueueProgress,
  ReviewerProgress,
  WireReviewQueue,
  wireProgress,
  wireReviewerProgress,
  wireReviewQueue,
} from '../../wire/review-queues.js';
import { OPERATORS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { QueueParams } from '../contracts/params.js';
import { refuse } from '../errors.js';
import { queueOf, queuesOf } from '../queues-in-force.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

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

const utc = (at: string | undefined) => (at === undefined ? undefined : new Date(at).toISOString());

/** A filter in the store's words; times as UTC ISO-8601, as the views keep them. */
function filterOf(filter: z.output<typeof ItemFilter>): ReviewTargetFilter {
  const defined = <T extends object>(value: T) =>
    Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
  switch (filter.kind) {
    case 'turn':
      return defined({
        kind: 'turn',
        statuses: filter.statuses,
        thread_id: filter.threadId,
        started_from: utc(filter.startedFrom),
        started_to: utc(filter.startedTo),
      });
    case 'message':
      return defined({
        kind: 'message',
        roles: filter.roles.map(roleOf),
        thread_id: filter.threadId,
        run_id: filter.runId,
      });
    case 'artifact':
      return defined({
        kind: 'artifact',
        artifact_kinds: filter.artifactKinds,
        latest_only: filter.latestOnly,
        created_from: utc(filter.createdFrom),
        created_to: utc(filter.createdTo),
      });
    case 'thread':
      return defined({
        kind: 'thread',
        created_from: utc(filter.createdFrom),
        created_to: utc(filter.createdTo),
      });
  }
}

/** A queue as the core's command sets it: its definition without who set it. */
const definitionOf = (queue: ReviewQueue): ReviewQueue => ({
  queue_id: queue.queue_id,
  feedback_type: queue.feedback_type,
  instructions: queue.instructions,
  target_kinds: queue.target_kinds,
  reviewers_per_item: queue.reviewers_per_item,
  blind: queue.blind,
  show_automated_verdicts: queue.show_automated_verdicts,
  lease_seconds: queue.lease_seconds,
  routing: queue.routing,
  archived: queue.archived,
});

export const registerReviewQueues = bindRoutes(reviewQueueRoutes, {
  reviewQueues: async ({ query, request, deps }) => {
    const { workspaceId } = callerOf(request);
    const now = deps.now();
    const queues = (await queuesOf(deps.store, deps.app, workspaceId)).filter(
      (queue) => query.includeArchived || !queue.archived,
    );
    return {
      queues: await Promise.all(
        queues.map(async (queue) => ({
          ...wireReviewQueue(queue),
          progress: wireProgress(
            await deps.store.reviewQueues.counts(workspaceId, queue.queue_id, now),
          ),
        })),
      ),
    };
  },

  reviewQueue: async ({ params, request, deps }) => {
    const { workspaceId } = callerOf(request);
    const queue = await queueOf(deps.store, deps.app, workspaceId, params.queueId);
    const now = deps.now();
    const [counts, reviewers] = await Promise.all([
      deps.store.reviewQueues.counts(workspaceId, queue.queue_id, now),
      deps.store.reviewQueues.reviewerCounts(workspaceId, queue.queue_id, now),
    ]);
    return {
      queue: wireReviewQueue(queue),
      progress: wireProgress(counts),
      reviewers: reviewers.map(wireReviewerProgress),
    };
  },

  setReviewQueue: async ({ params, body, request, deps }) => {
    const { workspaceId, principal } = callerOf(request);
    if (deps.app.feedbackTypes.get(body.feedbackType) === undefined) {
      throw refuse(notFound('feedback type', body.feedbackType));
    }
    const queue = reviewQueueOf(params.queueId, body, deps.app.feedbackTypes);
    const outcome = await execute(deps, request, actorOf(principal), {
      type: 'set_review_queue',
      ...queue,
    });
    const stored = await queueOf(deps.store, deps.app, workspaceId, queue.queue_id);
    return { ...written(outcome.events), queue: wireReviewQueue(stored) };
  },

  archiveReviewQueue: async ({ params, request, deps }) => {
    const { workspaceId, principal } = callerOf(request);
    const queue = await queueOf(deps.store, deps.app, workspaceId, params.queueId);
    if (queue.archived) return { ...written([]), queue: wireReviewQueue(queue) };
    const outcome = await execute(deps, request, actorOf(principal), {
      type: 'set_review_queue',
      ...definitionOf(queue),
      archived: true,
    });
    const stored = await queueOf(deps.store, deps.app, workspaceId, queue.queue_id);
    return { ...written(outcome.events), queue: wireReviewQueue(stored) };
  },

  enqueue: async ({ params, body, request, deps }) => {
    const { workspaceId, principal } = callerOf(request);
    const queue = await queueOf(deps.store, deps.app, workspaceId, params.queueId);
    if (queue.archived) {
      throw refuse(invalidState(`review queue ${queue.queue_id} is archived`));
    }
    const takes = (kind: string) => {
      if (!(queue.target_kinds as readonly string[]).includes(kind)) {
        throw refuse(
          validationFailed(
            `review queue ${queue.queue_id} takes ${queue.target_kinds.join(', ')} targets, not ${kind}`,
          ),
        );
      }
    };
    const common = {
      workspace_id: workspaceId,
      queue_id: queue.queue_id,
      feedback_type: queue.feedback_type,
      slots: queue.reviewers_per_item,
      enqueued_by: participantOf(actorOf(principal)),
      now: deps.now(),
    };
    if ('filter' in body) {
      takes(body.filter.kind);
      const counts = await deps.store.reviewQueues.enqueueMatching({
        ...common,
        filter: filterOf(body.filter),
        ...(body.limit !== undefined ? { limit: body.limit } : {}),
      });
      return { added: counts.added, alreadyQueued: counts.already_queued };
    }
    const targets = body.targets.map((wire) => {
      takes(wire.kind);
      const parsed = Target.safeParse(targetOf(wire));
      if (!parsed.success) {
        throw refuse(validationFailed(`invalid target: ${summaryOf(parsed.error)}`));
      }
      return parsed.data;
    });
    const items = await deps.store.reviewQueues.enqueue({ ...common, targets });
    if (!Array.isArray(items)) throw refuse(items);
    const added = items.filter((item) => item.added).length;
    return {
      added,
      alreadyQueued: items.length - added,
      items: items.map((item) => ({
        itemId: item.item_id,
        target: wireTarget(item.target),
        added: item.added,
      })),
    };
  },
});

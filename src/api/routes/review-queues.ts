import type { z } from 'zod';
import { reviewQueueOf } from '../../config/index.js';
import {
  invalidState,
  notFound,
  participantOf,
  type ReviewQueue,
  summaryOf,
  Target,
  validationFailed,
} from '../../core/index.js';
import type { ReviewTargetFilter } from '../../store/index.js';
import { roleOf, targetOf, wireTarget, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { wireProgress, wireReviewerProgress, wireReviewQueue } from '../../wire/review-queues.js';
import { type ItemFilter, reviewQueueRoutes } from '../contracts/review-queues.js';
import { refuse } from '../errors.js';
import { queueOf, queuesOf } from '../queues-in-force.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// Review queues (contracts/review-queues.ts): listed with their progress, read with each
// reviewer's, set and archived (the system's and the admin's, recorded in the workspace's log as
// `set_review_queue`), and filled by hand, with targets or a filter applied here, on the server.

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

import { z } from 'zod';
import { RoutingRuleInput, routingRuleInputOf } from '../config/index.js';
import { type ReviewQueue, type StoredReviewQueue, TargetKindSchema } from '../core/index.js';
import type { QueueCounts, ReviewerCounts } from '../store/index.js';
import { WireTarget } from './entities.js';

// Review queues over HTTP (docs/api.md#review-queues): a queue's definition and progress in
// camelCase, each mapped from the core's and the store's words here, once.

export const WireReviewQueue = z.object({
  queueId: z.string(),
  feedbackType: z.string(),
  instructions: z.string(),
  targetKinds: z.array(TargetKindSchema),
  reviewersPerItem: z.int(),
  blind: z.boolean(),
  showAutomatedVerdicts: z.boolean(),
  leaseSeconds: z.int(),
  routing: z.array(RoutingRuleInput),
  archived: z.boolean(),
  /** Where it comes from: the app's config file, or this workspace's own queue. */
  origin: z.enum(['config', 'workspace']),
  setBy: z.string().nullable(),
  setAt: z.string().nullable(),
});
export type WireReviewQueue = z.output<typeof WireReviewQueue>;

const isStored = (queue: ReviewQueue): queue is StoredReviewQueue => 'seq' in queue;

export const wireReviewQueue = (queue: ReviewQueue | StoredReviewQueue): WireReviewQueue => ({
  queueId: queue.queue_id,
  feedbackType: queue.feedback_type,
  instructions: queue.instructions,
  targetKinds: queue.target_kinds,
  reviewersPerItem: queue.reviewers_per_item,
  blind: queue.blind,
  showAutomatedVerdicts: queue.show_automated_verdicts,
  leaseSeconds: queue.lease_seconds,
  routing: queue.routing.map(routingRuleInputOf),
  archived: queue.archived,
  origin: isStored(queue) ? 'workspace' : 'config',
  setBy: isStored(queue) ? queue.set_by : null,
  setAt: isStored(queue) ? queue.set_at : null,
});

const Throughput = z.object({
  /** Verdicts recorded in the last hour. */
  lastHour: z.int(),
  /** Verdicts recorded in the last 24 hours. */
  lastDay: z.int(),
});

/** A queue's progress: items, and slots (one per verdict an item needs) by state. */
export const QueueProgress = z.object({
  items: z.int(),
  itemsDone: z.int(),
  pending: z.int(),
  leased: z.int(),
  done: z.int(),
  skipped: z.int(),
  throughput: Throughput,
});
export const wireProgress = (counts: QueueCounts): z.output<typeof QueueProgress> => ({
  items: counts.items,
  itemsDone: counts.items_done,
  pending: counts.pending,
  ...wireWork(counts),
});

/** The slots leased, done and skipped and the pace, as a queue's and a reviewer's progress say. */
const wireWork = (counts: QueueCounts | ReviewerCounts) => ({
  leased: counts.leased,
  done: counts.done,
  skipped: counts.skipped,
  throughput: { lastHour: counts.done_last_hour, lastDay: counts.done_last_day },
});

export const ReviewerProgress = z.object({
  reviewer: z.string(),
  leased: z.int(),
  done: z.int(),
  skipped: z.int(),
  throughput: Throughput,
});
export const wireReviewerProgress = (
  counts: ReviewerCounts,
): z.output<typeof ReviewerProgress> => ({
  reviewer: counts.reviewer,
  ...wireWork(counts),
});

/** An item as a claim answers it: the target, its verdicts so far, the caller's lease. */
export const WireClaimedItem = z.object({
  itemId: z.string(),
  target: WireTarget,
  slots: z.int(),
  slotsDone: z.int(),
  leaseExpiresAt: z.string(),
});

import { z } from 'zod';
import type { FeedbackType, FeedbackTypeRegistry } from './feedback-types.js';
import { Id, Text } from './ids.js';
import { notFound, type Rejection, validationFailed } from './rejections.js';
import { EvaluatorId } from './rules.js';
import { type EvaluatedKind, type TargetKind, targetKinds } from './targets.js';

// Review queues: the work reviewers take from, data like a rule. The app's config gives the
// defaults; a workspace's `set_review_queue` commands override them per queue id, recorded in its
// log (who and when). A queue names the HUMAN feedback type its reviewers give, the target kinds
// it takes, how many reviewers each item needs, whether they review blind, and the rules that
// route targets into it as they happen. Its items, slots and leases are the store's
// (docs/specification.md#review-queues).

/** The shortest and longest lease, and the default, in seconds. */
export const LEASE_SECONDS = { min: 30, max: 24 * 60 * 60, default: 15 * 60 } as const;
/** The most reviewers one item may ask for. */
export const MAX_REVIEWERS_PER_ITEM = 50;

export const TargetKindSchema = z.enum(targetKinds as [TargetKind, ...TargetKind[]]);

/** A field value a verdict is compared with: a string, a number or a boolean. */
const Scalar = z.union([z.string(), z.number().finite(), z.boolean()]);

/**
 * A rule that puts targets into a queue as they happen. Each is idempotent per target: a target
 * routed twice, or routed and added by hand, is one item.
 */
export const RoutingRule = z.discriminatedUnion('kind', [
  /** A deterministic sample of completed runs (their turns), at `sample_rate`. */
  z.strictObject({
    kind: z.literal('completed_runs'),
    sample_rate: z.number().min(0).max(1),
  }),
  /** A user's rating of this type whose `field` is at most `at_most` (false counts as 0). */
  z.strictObject({
    kind: z.literal('rating_at_most'),
    feedback_type: Id,
    field: Id,
    at_most: z.number().finite(),
  }),
  /** An evaluator version's verdict whose `field` equals `equals`. */
  z.strictObject({
    kind: z.literal('verdict_equals'),
    evaluator: EvaluatorId,
    field: Id,
    equals: Scalar,
  }),
  /** An evaluator version's verdict whose `field` is at most `at_most` (false counts as 0). */
  z.strictObject({
    kind: z.literal('verdict_at_most'),
    evaluator: EvaluatorId,
    field: Id,
    at_most: z.number().finite(),
  }),
  /** An evaluator version's verdict whose confidence `field` is below `below`. */
  z.strictObject({
    kind: z.literal('confidence_below'),
    evaluator: EvaluatorId,
    field: Id.default('confidence'),
    below: z.number().finite(),
  }),
  /** Two evaluator versions whose verdicts on one target differ in `field`. */
  z.strictObject({
    kind: z.literal('disagreement'),
    evaluators: z.array(EvaluatorId).length(2),
    field: Id,
  }),
]);
export type RoutingRule = z.output<typeof RoutingRule>;
export type RoutingRuleKind = RoutingRule['kind'];
export const routingRuleKinds = RoutingRule.options.map(
  (option) => option.shape.kind.value,
) as readonly RoutingRuleKind[];

/** A queue's settings, as a command sets them and the view keeps them. */
export const ReviewQueueSettings = {
  /** The HUMAN feedback type reviewers give on its items. */
  feedback_type: Id,
  /** What reviewers read first, in Markdown (rendered as text, through a sanitizer). */
  instructions: Text.default(''),
  /** The target kinds it takes: some of its feedback type's. */
  target_kinds: z.array(TargetKindSchema).min(1),
  /** How many reviewers each item needs; an item is done when it has that many verdicts. */
  reviewers_per_item: z.int().min(1).max(MAX_REVIEWERS_PER_ITEM).default(1),
  /** A reviewer sees no other reviewer's verdict on an item before giving their own. */
  blind: z.boolean().default(true),
  /** Whether the item view shows evaluators' verdicts on the target. */
  show_automated_verdicts: z.boolean().default(false),
  /** How long a claim holds an item without a heartbeat. */
  lease_seconds: z
    .int()
    .min(LEASE_SECONDS.min)
    .max(LEASE_SECONDS.max)
    .default(LEASE_SECONDS.default),
  /** The rules that put targets into it as they happen. */
  routing: z.array(RoutingRule).default([]),
  /** An archived queue keeps its items and settings, takes no new ones and hands out none. */
  archived: z.boolean().default(false),
};

export const ReviewQueueSchema = z.strictObject({ queue_id: Id, ...ReviewQueueSettings });
/** One review queue's definition. */
export type ReviewQueue = z.output<typeof ReviewQueueSchema>;

/** A queue as a workspace's view holds it: who set it and when. */
export interface StoredReviewQueue extends ReviewQueue {
  set_by: string;
  set_at: string;
  seq: number;
}

/**
 * The queues in force: the defaults, each replaced by the workspace's own queue of the same id.
 * Sorted by queue id.
 */
export function queuesInForce<Q extends ReviewQueue>(
  defaults: readonly ReviewQueue[],
  workspaceQueues: Iterable<Q>,
): (ReviewQueue | Q)[] {
  const byId = new Map<string, ReviewQueue | Q>(defaults.map((queue) => [queue.queue_id, queue]));
  for (const queue of workspaceQueues) byId.set(queue.queue_id, queue);
  return [...byId.values()].sort((a, b) => (a.queue_id < b.queue_id ? -1 : 1));
}

/**
 * What checking a queue reads: the feedback types, and the deployed evaluator versions with the
 * kinds each judges and its feedback type (a `DecideContext` is one).
 */
export interface ReviewQueueContext {
  feedbackTypes: FeedbackTypeRegistry;
  evaluators?: {
    targetsOf(id: string): readonly EvaluatedKind[] | undefined;
    feedbackTypeOf?(id: string): string | undefined;
  };
}

/** Whether reviewers can give feedback of a type: HUMAN feedback, with its score config. */
export const isReviewersType = (type: FeedbackType): boolean =>
  type.configName !== null && (type.source === null || type.source === 'HUMAN');

/**
 * What is wrong with a queue's definition against the app: the feedback type, its target kinds,
 * and every routing rule's evaluator versions and fields; null when nothing is. The config file
 * and `set_review_queue` both check with this, so a mistake is refused where it is written.
 */
export function reviewQueueProblem(
  queue: ReviewQueue,
  context: ReviewQueueContext,
): Rejection | null {
  const type = context.feedbackTypes.get(queue.feedback_type);
  if (type === undefined) return notFound('feedback type', queue.feedback_type);
  if (!isReviewersType(type)) {
    return validationFailed(
      `${type.name} feedback is not given by reviewers: a review queue's type is HUMAN, with a score config (configName)`,
    );
  }
  const untaken = queue.target_kinds.filter((kind) => !type.targets.includes(kind));
  if (untaken.length > 0) {
    return validationFailed(
      `${type.name} feedback is given on ${type.targets.join(', ')}, not on ${untaken.join(', ')}`,
    );
  }
  for (const [index, rule] of queue.routing.entries()) {
    const problem = routingProblem(queue, rule, context);
    if (problem !== null) return { ...problem, message: `routing[${index}]: ${problem.message}` };
  }
  return null;
}

function routingProblem(
  queue: ReviewQueue,
  rule: RoutingRule,
  context: ReviewQueueContext,
): Rejection | null {
  const takes = (kinds: readonly TargetKind[], what: string) =>
    kinds.some((kind) => queue.target_kinds.includes(kind))
      ? null
      : validationFailed(
          `${what} puts ${kinds.join(', ')} targets in the queue, which takes only ${queue.target_kinds.join(', ')}`,
        );
  const hasField = (type: FeedbackType | undefined, field: string, owner: string) =>
    type === undefined || field in type.schema.shape
      ? null
      : validationFailed(`${owner}'s feedback type ${type.name} has no field ${field}`);
  const evaluator = (id: string) => {
    const kinds = context.evaluators?.targetsOf(id);
    if (kinds === undefined) return { problem: notFound('evaluator', id) };
    const typeName = context.evaluators?.feedbackTypeOf?.(id);
    const type = typeName === undefined ? undefined : context.feedbackTypes.get(typeName);
    return { kinds, type };
  };
  switch (rule.kind) {
    case 'completed_runs':
      return takes(['turn'], 'completed_runs');
    case 'rating_at_most': {
      const type = context.feedbackTypes.get(rule.feedback_type);
      if (type === undefined) return notFound('feedback type', rule.feedback_type);
      return takes(type.targets, `rating ${type.name}`) ?? hasField(type, rule.field, type.name);
    }
    case 'verdict_equals':
    case 'verdict_at_most':
    case 'confidence_below': {
      const found = evaluator(rule.evaluator);
      if ('problem' in found) return found.problem ?? null;
      return takes(found.kinds, rule.evaluator) ?? hasField(found.type, rule.field, rule.evaluator);
    }
    case 'disagreement': {
      const [a, b] = rule.evaluators;
      if (a === b) return validationFailed(`disagreement names ${a} twice: name two versions`);
      for (const id of rule.evaluators) {
        const found = evaluator(id);
        if ('problem' in found) return found.problem ?? null;
        const problem = takes(found.kinds, id) ?? hasField(found.type, rule.field, id);
        if (problem !== null) return problem;
      }
      return null;
    }
  }
}

// An item's slots: one per verdict it needs. A free slot waits for a reviewer, a leased one is
// held by one until its lease ends, a done one holds its reviewer's verdict.
export const reviewSlotStates = ['free', 'leased', 'done'] as const;
export type ReviewSlotState = (typeof reviewSlotStates)[number];

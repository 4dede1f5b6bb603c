import { z } from 'zod';
import {
  type FeedbackTypeRegistry,
  type ReviewQueue,
  ReviewQueueSettings,
  RoutingRule,
} from '../core/index.js';

// A review queue's settings as people write them (the config file, the HTTP API): camelCase,
// mapped once onto the core's wire settings. The element rules (ids, bounds, defaults) are the
// core's.

// The core's rules, in the order its union lists them (the compiler checks each field below).
const [completedRuns, ratingAtMost, verdictEquals, verdictAtMost, confidenceBelow, disagreement] =
  RoutingRule.options;

export const RoutingRuleInput = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('completed_runs'),
    sampleRate: completedRuns.shape.sample_rate,
  }),
  z.strictObject({
    kind: z.literal('rating_at_most'),
    feedbackType: ratingAtMost.shape.feedback_type,
    field: ratingAtMost.shape.field,
    atMost: ratingAtMost.shape.at_most,
  }),
  z.strictObject({
    kind: z.literal('verdict_equals'),
    evaluator: verdictEquals.shape.evaluator,
    field: verdictEquals.shape.field,
    equals: verdictEquals.shape.equals,
  }),
  z.strictObject({
    kind: z.literal('verdict_at_most'),
    evaluator: verdictAtMost.shape.evaluator,
    field: verdictAtMost.shape.field,
    atMost: verdictAtMost.shape.at_most,
  }),
  z.strictObject({
    kind: z.literal('confidence_below'),
    evaluator: confidenceBelow.shape.evaluator,
    field: confidenceBelow.shape.field,
    below: confidenceBelow.shape.below,
  }),
  z.strictObject({
    kind: z.literal('disagreement'),
    evaluators: disagreement.shape.evaluators,
    field: disagreement.shape.field,
  }),
]);
export type RoutingRuleInput = z.output<typeof RoutingRuleInput>;

export const ReviewQueueSettingsInput = z.strictObject({
  feedbackType: ReviewQueueSettings.feedback_type,
  instructions: ReviewQueueSettings.instructions,
  /** Absent: every kind the feedback type is given on. */
  targetKinds: ReviewQueueSettings.target_kinds.optional(),
  reviewersPerItem: ReviewQueueSettings.reviewers_per_item,
  blind: ReviewQueueSettings.blind,
  showAutomatedVerdicts: ReviewQueueSettings.show_automated_verdicts,
  leaseSeconds: ReviewQueueSettings.lease_seconds,
  routing: z.array(RoutingRuleInput).default([]),
});
export type ReviewQueueSettingsInput = z.output<typeof ReviewQueueSettingsInput>;

// The fields whose names differ between the core (snake_case) and what people write (camelCase);
// every other field keeps its name. One table, read both ways, so the two mappers cannot drift.
const CAMEL_CASE = { sample_rate: 'sampleRate', feedback_type: 'feedbackType', at_most: 'atMost' };
const SNAKE_CASE = Object.fromEntries(
  Object.entries(CAMEL_CASE).map(([snake, camel]) => [camel, snake]),
);

/** A rule with its field names renamed; arrays copied so neither side shares the other's. */
function renamed(rule: object, names: Readonly<Record<string, string>>): unknown {
  return Object.fromEntries(
    Object.entries(rule).map(([name, value]) => [
      names[name] ?? name,
      Array.isArray(value) ? [...value] : value,
    ]),
  );
}

/** A routing rule in the core's words. */
export const routingRuleOf = (rule: RoutingRuleInput): RoutingRule =>
  renamed(rule, SNAKE_CASE) as RoutingRule;

/** A routing rule in the camelCase people write. */
export const routingRuleInputOf = (rule: RoutingRule): RoutingRuleInput =>
  renamed(rule, CAMEL_CASE) as RoutingRuleInput;

/**
 * The core's queue of settings written in camelCase. Target kinds left out are every kind the
 * feedback type is given on (none when the type is unknown: the core's check then names it).
 */
export function reviewQueueOf(
  queue_id: string,
  input: ReviewQueueSettingsInput,
  feedbackTypes: FeedbackTypeRegistry,
  archived = false,
): ReviewQueue {
  return {
    queue_id,
    feedback_type: input.feedbackType,
    instructions: input.instructions,
    target_kinds: [
      ...new Set(input.targetKinds ?? feedbackTypes.get(input.feedbackType)?.targets ?? []),
    ].sort(),
    reviewers_per_item: input.reviewersPerItem,
    blind: input.blind,
    show_automated_verdicts: input.showAutomatedVerdicts,
    lease_seconds: input.leaseSeconds,
    routing: input.routing.map(routingRuleOf),
    archived,
  };
}

import {
  type Envelope,
  type FeedbackGiven,
  participantOf,
  type ReviewQueue,
  type RoutingRule,
  type RoutingRuleKind,
  type Target,
  targetKey,
} from '../core/index.js';
import { isSampled } from '../evaluators/index.js';

// Which events put which targets into which review queues, and which reviewer's verdict counts
// toward which items: pure, so the router that follows the log (at least once) only loads what
// this asks for, then enqueues (idempotent per queue and target) and settles (idempotent per
// reviewer and item).

/** A target a routing rule puts into a queue. */
export interface Routed {
  queue_id: string;
  target: Target;
  rule: RoutingRuleKind;
}

/** Earlier verdicts an event's routing compares with: one evaluator version's, on one target. */
export interface VerdictLookup {
  participant: string;
  target: Target;
}

/** Those earlier verdicts' values, by `lookupKey`. */
export type Verdicts = ReadonlyMap<string, readonly Record<string, unknown>[]>;

export const lookupKey = (lookup: VerdictLookup) =>
  `${lookup.participant}|${targetKey(lookup.target)}`;

const live = (queues: readonly ReviewQueue[]) => queues.filter((queue) => !queue.archived);

/** An evaluator's verdict, with its evaluator version (`name@version`), or null. */
function verdictOf(envelope: Envelope): { event: FeedbackGiven; evaluator: string } | null {
  const { event, actor } = envelope;
  if (event.type !== 'feedback_given' || actor.kind !== 'evaluator') return null;
  return { event, evaluator: `${actor.name}@${actor.version}` };
}

/** A field's value as a number: a number, or a boolean (false 0, true 1); else null. */
const numberOf = (value: unknown): number | null =>
  typeof value === 'number' ? value : typeof value === 'boolean' ? Number(value) : null;

/** The earlier verdicts routing `envelope` compares with (a disagreement's other version's). */
export function routingNeeds(queues: readonly ReviewQueue[], envelope: Envelope): VerdictLookup[] {
  const verdict = verdictOf(envelope);
  if (verdict === null) return [];
  const needs: VerdictLookup[] = [];
  for (const queue of live(queues)) {
    for (const rule of queue.routing) {
      if (rule.kind !== 'disagreement' || !rule.evaluators.includes(verdict.evaluator)) continue;
      const other = rule.evaluators.find((id) => id !== verdict.evaluator) as string;
      needs.push({ participant: `evaluator:${other}`, target: verdict.event.target });
    }
  }
  return needs;
}

/** Whether one rule puts the envelope's target in `queue`, given the earlier verdicts. */
function routes(
  queue: ReviewQueue,
  rule: RoutingRule,
  envelope: Envelope,
  verdicts: Verdicts,
): Target | null {
  const { event, actor } = envelope;
  switch (rule.kind) {
    case 'completed_runs': {
      if (event.type !== 'run_ended' || event.status !== 'completed') return null;
      const target: Target = { kind: 'turn', run_id: event.run_id };
      const sampled = isSampled(
        `review-queue:${queue.queue_id}`,
        targetKey(target),
        rule.sample_rate,
      );
      return sampled ? target : null;
    }
    case 'rating_at_most': {
      if (event.type !== 'feedback_given' || actor.kind !== 'user') return null;
      if (event.feedback_type !== rule.feedback_type) return null;
      const value = numberOf(event.value[rule.field]);
      return value !== null && value <= rule.at_most ? event.target : null;
    }
    case 'verdict_equals':
    case 'verdict_at_most':
    case 'confidence_below': {
      const verdict = verdictOf(envelope);
      if (verdict === null || verdict.evaluator !== rule.evaluator) return null;
      const field = verdict.event.value[rule.field];
      if (rule.kind === 'verdict_equals')
        return field === rule.equals ? verdict.event.target : null;
      const value = numberOf(field);
      if (value === null) return null;
      const matches = rule.kind === 'verdict_at_most' ? value <= rule.at_most : value < rule.below;
      return matches ? verdict.event.target : null;
    }
    case 'disagreement': {
      const verdict = verdictOf(envelope);
      if (verdict === null || !rule.evaluators.includes(verdict.evaluator)) return null;
      const other = rule.evaluators.find((id) => id !== verdict.evaluator) as string;
      const earlier =
        verdicts.get(
          lookupKey({ participant: `evaluator:${other}`, target: verdict.event.target }),
        ) ?? [];
      const mine = JSON.stringify(verdict.event.value[rule.field] ?? null);
      const differ = earlier.some((value) => JSON.stringify(value[rule.field] ?? null) !== mine);
      return differ ? verdict.event.target : null;
    }
  }
}

/**
 * The targets the envelope puts into queues: for each live queue, each rule that matches, when
 * the queue takes the target's kind. A target routed by two rules of one queue is listed once.
 */
export function route(
  queues: readonly ReviewQueue[],
  envelope: Envelope,
  verdicts: Verdicts = new Map(),
): Routed[] {
  const routed: Routed[] = [];
  for (const queue of live(queues)) {
    for (const rule of queue.routing) {
      const target = routes(queue, rule, envelope, verdicts);
      if (target === null || !queue.target_kinds.includes(target.kind)) continue;
      const key = targetKey(target);
      const listed = routed.some(
        (r) => r.queue_id === queue.queue_id && targetKey(r.target) === key,
      );
      if (!listed) routed.push({ queue_id: queue.queue_id, target, rule: rule.kind });
    }
  }
  return routed;
}

/**
 * A reviewer's verdict of a queue's type was recorded: it counts toward the target's items in
 * those queues, however it was sent (the API counts it as it records; this catches a verdict
 * whose API stopped before it could). Archived queues too: work held is work done.
 */
export function settlementOf(
  queues: readonly ReviewQueue[],
  envelope: Envelope,
): { reviewer: string; feedback_type: string; target_key: string; queue_ids: string[] } | null {
  const { event, actor } = envelope;
  if (event.type !== 'feedback_given' || actor.kind !== 'reviewer') return null;
  const queue_ids = queues
    .filter((queue) => queue.feedback_type === event.feedback_type)
    .map((queue) => queue.queue_id);
  if (queue_ids.length === 0) return null;
  return {
    reviewer: participantOf(actor),
    feedback_type: event.feedback_type,
    target_key: targetKey(event.target),
    queue_ids,
  };
}

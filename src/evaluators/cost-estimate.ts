import { type ModelPrice, nanosOf } from '../core/index.js';
import type { Evaluator } from './define.js';

/** A version's cost so far: its judged evaluations and their mean cost (null: not known). */
export interface CostHistory {
  evaluations: number;
  mean_cost_nanos: number | null;
}

/**
 * What one more evaluation by this version is expected to cost, in nano-dollars: its measured
 * mean once it has one, else its declared estimate, else null (unknown, never a made-up figure).
 */
export function estimatedCostNanos(
  evaluator: Pick<Evaluator, 'estimatedCostUsd'>,
  history: CostHistory,
): number | null {
  if (history.evaluations > 0 && history.mean_cost_nanos !== null) return history.mean_cost_nanos;
  return evaluator.estimatedCostUsd === undefined ? null : nanosOf(evaluator.estimatedCostUsd);
}

/**
 * What one evaluation by a version tuned from a base is expected to cost before it has judged:
 * the base's measured mean cost, plus the input tokens the version's prompt adds to the base's
 * (its examples, its rubric's difference) at the model's price. The same model reads the same
 * targets, so only the added part of the prompt differs. Not rounded: a batch's total is rounded
 * once.
 */
export function costThroughBaseNanos(
  baseMeanCostNanos: number,
  addedInputTokens: number,
  price: ModelPrice,
): number {
  // USD per million tokens = 1,000 nano-dollars per token.
  return Math.max(0, baseMeanCostNanos + addedInputTokens * price.inputPerMillionUsd * 1000);
}

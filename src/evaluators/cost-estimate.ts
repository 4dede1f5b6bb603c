import { nanosOf } from '../core/index.js';
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

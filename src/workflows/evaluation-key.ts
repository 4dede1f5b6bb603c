import type { EvaluationTarget } from '../activities/contract.js';
import { targetKey } from '../core/targets.js';
import type { EvaluatorRef } from '../evaluators/registry.js';

/** `{participant} {target key}`: one (evaluator version, target) pair. */
export function evaluationKey(evaluator: EvaluatorRef, target: EvaluationTarget): string {
  return `evaluator:${evaluator.name}@${evaluator.version} ${targetKey(target)}`;
}

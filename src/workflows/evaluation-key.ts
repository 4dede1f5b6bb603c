import type { EvaluationTarget } from '../activities/types.js';
import { evaluatorParticipant, targetKey } from '../core/keys.js';
import type { EvaluatorRef } from '../evaluators/registry.js';

/** `{participant} {target key}`: one (evaluator version, target) pair. */
export function evaluationKey(evaluator: EvaluatorRef, target: EvaluationTarget): string {
  return `${evaluatorParticipant(evaluator)} ${targetKey(target)}`;
}

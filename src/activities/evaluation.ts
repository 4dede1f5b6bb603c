import { evaluate } from './evaluate.js';
import { type EvaluationDeps, evaluationContext, settle } from './evaluation-context.js';
import { giveFeedback } from './give-feedback.js';
import type { EvaluateInput, EvaluateResult, GiveFeedbackInput, SettleInput } from './types.js';

/**
 * The `evaluate`, `giveFeedback` and `settleEvaluation` activities: their names are the ones
 * recorded in workflow histories.
 */
export function evaluationActivities(deps: EvaluationDeps) {
  const evaluation = evaluationContext(deps);
  return {
    evaluate: (input: EvaluateInput): Promise<EvaluateResult> => evaluate(evaluation, input),

    /**
     * Gives the verdict as the evaluator. Its command id derives from (workflow id, participant,
     * target, generation), so a retry or replay returns the first outcome and records nothing.
     */
    async giveFeedback(input: GiveFeedbackInput): Promise<{ envelopeId: string }> {
      return { envelopeId: (await giveFeedback(evaluation, input)) ?? '' };
    },

    async settleEvaluation(input: SettleInput): Promise<void> {
      await settle(evaluation, input, input.state, input.reason);
    },
  };
}

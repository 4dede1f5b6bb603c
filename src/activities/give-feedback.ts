import { commandIdOf, type VerdictSettlement } from '../store/index.js';
import { deployed, type EvaluationContext, ledgerKey } from './evaluation-context.js';
import { FailureType, terminal } from './failures.js';
import type { GiveFeedbackInput } from './types.js';

/**
 * Gives the verdict as the evaluator and settles it as recorded. Its command id derives from
 * (workflow id, participant, target, generation), so a retry or replay returns the first
 * outcome and records nothing.
 */
export async function giveFeedback(
  evaluation: EvaluationContext,
  input: GiveFeedbackInput,
  attempt?: VerdictSettlement['attempt'],
): Promise<string | null> {
  const { deps } = evaluation;
  const evaluator = await deployed(evaluation, input);
  const { generation, participant, target_key } = ledgerKey(input);
  const outcome = await deps.store.execute(
    {
      workspace_id: input.workspaceId,
      actor: { kind: 'evaluator', name: evaluator.name, version: evaluator.version },
      command: {
        type: 'give_feedback',
        feedback_type: evaluator.feedbackType.name,
        target: input.target,
        value: input.value,
        source: evaluator.source,
        ...(input.evaluator.shadowOf !== undefined ? { shadow: true } : {}),
      },
      command_id: commandIdOf(`${input.workflowId}|${participant}|${target_key}|${generation}`),
    },
    // Settled in the append's transaction: one write, and never a verdict without its entry.
    { settles: { generation, participant, target_key, target: input.target, attempt } },
  );
  if (outcome.type !== 'recorded') {
    // A refused verdict's attempt still judged (and cost what it reported).
    if (attempt !== undefined) {
      await deps.store.usage.recordAttempt({
        workspace_id: input.workspaceId,
        ...ledgerKey(input),
        ...attempt,
        failed: false,
      });
    }
    throw terminal(
      `the store refused ${participant}'s feedback: ${outcome.message}`,
      `${FailureType.feedbackRejected}.${outcome.type}`,
    );
  }
  deps.observer?.settled(input.evaluator, 'recorded');
  return outcome.events[0]?.id ?? null;
}

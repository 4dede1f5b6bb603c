import { ApplicationFailure, Context } from '@temporalio/activity';
import { targetKey } from '../core/index.js';
import { type EvaluatorRegistry, evaluatorParticipant, isSampled } from '../evaluators/index.js';
import type { Store } from '../store/index.js';
import type {
  EvaluateInput,
  EvaluateResult,
  EvaluationKey,
  GiveFeedbackInput,
  SettleInput,
} from './contract.js';
import { loadSubject } from './subjects.js';

export interface EvaluationDeps {
  store: Store;
  evaluators: EvaluatorRegistry;
}

const participantOf = ({ evaluator }: EvaluationKey) =>
  evaluatorParticipant(evaluator.name, evaluator.version);
const ledgerKey = (input: EvaluationKey) => ({
  generation: input.generation,
  participant: participantOf(input),
  target_key: targetKey(input.target),
});

/** The `evaluate`, `giveFeedback` and `settleEvaluation` activities. */
export function evaluationActivities(deps: EvaluationDeps) {
  const settle = (
    input: EvaluationKey,
    state: SettleInput['state'] | 'recorded',
    reason: string | null,
    envelope_id: string | null = null,
  ) =>
    deps.store.ledger.settleEvaluation({
      workspace_id: input.workspaceId,
      ...ledgerKey(input),
      target: input.target,
      state,
      reason,
      envelope_id,
    });

  return {
    /** Judges one target with one evaluator version; terminal failures are non-retryable. */
    async evaluate(input: EvaluateInput): Promise<EvaluateResult> {
      const evaluator = deps.evaluators.get(input.evaluator);
      if (evaluator === undefined) {
        throw ApplicationFailure.nonRetryable(
          `${participantOf(input)} is not deployed on this worker`,
          'EvaluatorNotDeployed',
        );
      }
      const settled = await deps.store.ledger.evaluation(input.workspaceId, ledgerKey(input));
      if (settled !== null) return { outcome: 'settled', state: settled.state };
      if (!isSampled(evaluator.participant, targetKey(input.target), evaluator.sampleRate)) {
        await settle(input, 'sampled_out', `outside the sample rate ${evaluator.sampleRate}`);
        return { outcome: 'sampled_out' };
      }
      const subject = await loadSubject(deps.store, input.workspaceId, input.target);
      if (subject === null) {
        const reason = `the ${input.target.kind} does not exist`;
        await settle(input, 'skipped', reason);
        return { outcome: 'skipped', reason };
      }
      const context = Context.current();
      let verdict: unknown;
      try {
        verdict = await evaluator.evaluate(subject, {
          participant: evaluator.participant,
          attempt: context.info.attempt,
          signal: context.cancellationSignal,
        });
      } catch (error) {
        // An evaluator says a failure is terminal with `retryable: false`; anything else retries.
        if ((error as { retryable?: unknown }).retryable === false) {
          throw ApplicationFailure.nonRetryable((error as Error).message, (error as Error).name);
        }
        throw error;
      }
      const parsed = evaluator.feedbackType.schema.safeParse(verdict);
      if (!parsed.success) {
        const issues = parsed.error.issues.map(
          (i) => `${i.path.join('.') || '(value)'}: ${i.message}`,
        );
        throw ApplicationFailure.nonRetryable(
          `${evaluator.participant} gave an invalid ${evaluator.feedbackType.name} verdict: ${issues.join('; ')}`,
          'InvalidVerdict',
        );
      }
      return { outcome: 'verdict', value: parsed.data as Record<string, unknown> };
    },

    /**
     * Gives the verdict as the evaluator. Its command id derives from (workflow id, participant,
     * target, generation), so a retry or replay returns the first outcome and records nothing.
     */
    async giveFeedback(input: GiveFeedbackInput): Promise<{ envelopeId: string }> {
      const evaluator = deps.evaluators.get(input.evaluator);
      if (evaluator === undefined) {
        throw ApplicationFailure.nonRetryable(
          `${participantOf(input)} is not deployed`,
          'EvaluatorNotDeployed',
        );
      }
      const { generation, participant, target_key } = ledgerKey(input);
      const outcome = await deps.store.execute({
        workspace_id: input.workspaceId,
        actor: { kind: 'evaluator', name: evaluator.name, version: evaluator.version },
        command: {
          type: 'give_feedback',
          feedback_type: evaluator.feedbackType.name,
          target: input.target,
          value: input.value,
          source: evaluator.source,
        },
        command_id: `${input.workflowId}|${participant}|${target_key}|${generation}`,
      });
      if (outcome.type !== 'recorded') {
        throw ApplicationFailure.nonRetryable(
          `the store refused ${participant}'s feedback: ${outcome.message}`,
          `FeedbackRejected.${outcome.type}`,
        );
      }
      const envelopeId = outcome.events[0]?.id ?? null;
      await settle(input, 'recorded', null, envelopeId);
      return { envelopeId: envelopeId ?? '' };
    },

    async settleEvaluation(input: SettleInput): Promise<void> {
      await settle(input, input.state, input.reason);
    },
  };
}

import { Context } from '@temporalio/activity';
import {
  type Budget,
  costNanos,
  evaluatorParticipant,
  type Pricing,
  summaryOf,
  targetKey,
  UsageReport,
} from '../core/index.js';
import {
  type EvaluatorRegistry,
  type FollowedRef,
  isSampled,
  type Subject,
} from '../evaluators/index.js';
import type { EvaluationObserver } from '../metrics/observers.js';
import type { OperationsLog } from '../metrics/operations-log.js';
import { commandIdOf, type Store, type VerdictSettlement } from '../store/index.js';
import { budgetGuard } from './budget-guard.js';
import { describeEvaluationSpan } from './evaluation-span.js';
import { asActivityFailure, FailureType, terminal } from './failures.js';
import { loadSubject } from './load-subject.js';
import { sharedSubjects } from './shared-subjects.js';
import type {
  EvaluateInput,
  EvaluateResult,
  EvaluationKey,
  GiveFeedbackInput,
  SettleInput,
} from './types.js';

export interface EvaluationDeps {
  store: Store;
  evaluators: EvaluatorRegistry;
  /** Prices by model, for usage reported without a cost. */
  pricing?: Readonly<Pricing>;
  /** The config's budgets (a workspace's own are read from the store). */
  budgets?: readonly Budget[];
  /** The clock budgets' periods are read by (default the system's). */
  now?: () => number;
  /** Where a budget's 80 % warning is written (default `console.warn`). */
  warn?: (line: string) => void;
  observer?: EvaluationObserver | undefined;
  /** Told of each evaluation started and finished, and of one a budget holds back. */
  log?: OperationsLog | undefined;
}

const ledgerKey = (input: EvaluationKey) => ({
  generation: input.generation,
  participant: evaluatorParticipant(input.evaluator),
  target_key: targetKey(input.target),
});

/**
 * The live versions a shadow version follows that judge this target, by their own sampling; all
 * of them for a live version or a shadow that follows none (then its own rule decides).
 */
function followedOn(input: EvaluateInput, key: string): FollowedRef[] | null {
  const followed = input.evaluator.shadowOf;
  if (followed === undefined || followed.length === 0) return null;
  return followed.filter((ref) => isSampled(evaluatorParticipant(ref), key, ref.sampleRate ?? 1));
}

const listOf = (refs: readonly FollowedRef[]) =>
  refs.map((ref) => `${ref.name}@${ref.version} at ${ref.sampleRate ?? 1}`).join(', ');

/**
 * Why a target is not judged: it is gone, an artifact of a kind the rule leaves out, or (for a
 * shadow version) of a kind none of the live versions judging it takes.
 */
function skipReason(
  input: EvaluateInput,
  subject: Subject | null,
  followed: readonly FollowedRef[] | null,
): string | null {
  if (subject === null) return `the ${input.target.kind} does not exist`;
  if (subject.kind !== 'artifact') return null;
  const kinds = input.evaluator.artifactKinds;
  if (kinds !== undefined && !kinds.includes(subject.artifact.kind)) {
    return `artifact kind ${subject.artifact.kind} is outside the rule's artifact kinds`;
  }
  const judgedBy = (ref: FollowedRef) =>
    ref.artifactKinds === undefined || ref.artifactKinds.includes(subject.artifact.kind);
  if (followed !== null && !followed.some(judgedBy)) {
    return `artifact kind ${subject.artifact.kind} is outside what the live versions judge (${listOf(followed)})`;
  }
  return null;
}

/** The `evaluate`, `giveFeedback` and `settleEvaluation` activities. */
export function evaluationActivities(deps: EvaluationDeps) {
  const budgets = budgetGuard({
    store: deps.store,
    budgets: deps.budgets ?? [],
    now: deps.now ?? Date.now,
    warn: deps.warn ?? ((line) => console.warn(line)),
  });
  const subjects = sharedSubjects();
  const settle = async (
    input: EvaluationKey,
    state: SettleInput['state'],
    reason: string | null,
  ) => {
    const entry = await deps.store.ledger.settleEvaluation({
      workspace_id: input.workspaceId,
      ...ledgerKey(input),
      target: input.target,
      state,
      reason,
      envelope_id: null,
    });
    deps.observer?.settled(input.evaluator, entry.state);
    return entry;
  };
  const deployed = (input: EvaluationKey) => {
    const evaluator = deps.evaluators.get(input.evaluator);
    if (evaluator !== undefined) return evaluator;
    throw terminal(
      `${evaluatorParticipant(input.evaluator)} is not deployed on this worker`,
      FailureType.evaluatorNotDeployed,
    );
  };

  /**
   * Gives the verdict as the evaluator and settles it as recorded. Its command id derives from
   * (workflow id, participant, target, generation), so a retry or replay returns the first
   * outcome and records nothing.
   */
  const give = async (
    input: GiveFeedbackInput,
    attempt?: VerdictSettlement['attempt'],
  ): Promise<string | null> => {
    const evaluator = deployed(input);
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
  };

  return {
    /**
     * Judges one target with one evaluator version, and with `record` gives the verdict too;
     * terminal failures are non-retryable.
     */
    async evaluate(input: EvaluateInput): Promise<EvaluateResult> {
      const evaluator = deployed(input);
      const settled = await deps.store.ledger.evaluation(input.workspaceId, ledgerKey(input));
      if (settled !== null) return { outcome: 'settled', state: settled.state };
      // The rule's sample rate, pinned with the plan; a re-evaluation judges everything.
      const rate = input.evaluator.sampleRate ?? 1;
      const key = targetKey(input.target);
      // A shadow version judges only what a live version it follows judges, then its own sample.
      const followed = followedOn(input, key);
      if (followed !== null && followed.length === 0) {
        const shadowed = input.evaluator.shadowOf ?? [];
        await settle(
          input,
          'sampled_out',
          `outside what the live versions judge (${listOf(shadowed)})`,
        );
        return { outcome: 'sampled_out' };
      }
      if (!isSampled(evaluator.participant, key, rate)) {
        await settle(input, 'sampled_out', `outside the sample rate ${rate}`);
        return { outcome: 'sampled_out' };
      }
      const subject = await subjects(
        input.target.kind === 'turn' ? `${input.workspaceId}|${input.generation}|${key}` : null,
        () => loadSubject(deps.store, input.workspaceId, input.target, input.throughSeq),
      );
      const skipped = skipReason(input, subject, followed);
      if (skipped !== null || subject === null) {
        const reason = skipped ?? `the ${input.target.kind} does not exist`;
        await settle(input, 'skipped', reason);
        return { outcome: 'skipped', reason };
      }
      describeEvaluationSpan(input, subject);
      const context = Context.current();
      const attempt = context.info.attempt;
      const usageKey = { workspace_id: input.workspaceId, ...ledgerKey(input) };
      let reports = 0;
      let spentNanos = 0;
      const reportUsage = async (usage: UsageReport) => {
        const report = UsageReport.safeParse(usage);
        if (!report.success) {
          throw terminal(
            `${evaluator.participant} reported invalid usage: ${summaryOf(report.error, Number.POSITIVE_INFINITY, '(usage)')}`,
            FailureType.invalidUsage,
          );
        }
        const { model, inputTokens, outputTokens } = report.data;
        const cost_nanos = costNanos(report.data, deps.pricing ?? {});
        await deps.store.usage.recordUsage({
          ...usageKey,
          attempt,
          report: reports++,
          model,
          input_tokens: inputTokens,
          output_tokens: outputTokens,
          cost_nanos,
        });
        spentNanos += cost_nanos ?? 0;
        deps.observer?.used?.(evaluator, report.data, cost_nanos);
      };
      const attemptKey = { ...usageKey, attempt };
      const { admission, held } = await budgets.admit(attemptKey, evaluator);
      // The ids an operator looks an evaluation up by (`evalflow ledger`, Temporal's UI).
      const ids = {
        workspace: input.workspaceId,
        target: key,
        evaluator: evaluator.participant,
        generation: input.generation,
        attempt,
        workflow: input.workflowId,
      };
      if (!admission.admitted) {
        deps.log?.info(
          {
            event: 'budget.reached',
            ...ids,
            action: admission.action,
            until: new Date(admission.untilMs).toISOString(),
            reason: admission.reason,
          },
          admission.action === 'defer'
            ? 'evaluation paused by its budget'
            : 'evaluation skipped by its budget',
        );
        if (admission.action === 'defer') {
          return { outcome: 'deferred', reason: admission.reason, untilMs: admission.untilMs };
        }
        await settle(input, 'skipped', admission.reason);
        return { outcome: 'skipped', reason: admission.reason };
      }
      let verdict: unknown;
      deps.log?.info({ event: 'evaluation.started', ...ids }, 'evaluation started');
      const judging = performance.now();
      const finished = (outcome: string, durationMs: number, reason?: string) =>
        deps.log?.[reason === undefined ? 'info' : 'warn'](
          {
            event: 'evaluation.finished',
            ...ids,
            outcome,
            durationMs: Math.round(durationMs),
            ...(reason === undefined ? {} : { reason }),
          },
          'evaluation finished',
        );
      // The attempt is recorded after the call, thrown or not (with the verdict when it gives
      // one); its usage was recorded as reported.
      const recordAttempt = (failed: boolean, duration_ms = performance.now() - judging) =>
        deps.store.usage.recordAttempt({ ...usageKey, attempt, duration_ms, failed });
      try {
        verdict = await evaluator.evaluate(subject, {
          participant: evaluator.participant,
          attempt,
          signal: context.cancellationSignal,
          reportUsage,
        });
      } catch (error) {
        finished('failed', performance.now() - judging, (error as Error).message ?? String(error));
        deps.observer?.judged(evaluator, (performance.now() - judging) / 1000, true);
        await recordAttempt(true);
        await budgets.settle(attemptKey, spentNanos, held);
        throw asActivityFailure(error);
      }
      const duration_ms = performance.now() - judging;
      await budgets.settle(attemptKey, spentNanos, held);
      deps.observer?.judged(evaluator, duration_ms / 1000, false);
      const parsed = evaluator.feedbackType.schema.safeParse(verdict);
      if (!parsed.success || !input.record) await recordAttempt(false, duration_ms);
      if (!parsed.success) {
        finished('invalid verdict', duration_ms, summaryOf(parsed.error, 3, '(value)'));
        throw terminal(
          `${evaluator.participant} gave an invalid ${evaluator.feedbackType.name} verdict: ${summaryOf(parsed.error, Number.POSITIVE_INFINITY, '(value)')}`,
          FailureType.invalidVerdict,
        );
      }
      const value = parsed.data as Record<string, unknown>;
      if (!input.record) {
        finished('verdict', duration_ms);
        return { outcome: 'verdict', value };
      }
      // The attempt is recorded with the verdict, in its append's transaction.
      await give({ ...input, value }, { attempt, duration_ms });
      finished('recorded', duration_ms);
      return { outcome: 'recorded' };
    },

    /**
     * Gives the verdict as the evaluator. Its command id derives from (workflow id, participant,
     * target, generation), so a retry or replay returns the first outcome and records nothing.
     */
    async giveFeedback(input: GiveFeedbackInput): Promise<{ envelopeId: string }> {
      return { envelopeId: (await give(input)) ?? '' };
    },

    async settleEvaluation(input: SettleInput): Promise<void> {
      await settle(input, input.state, input.reason);
    },
  };
}

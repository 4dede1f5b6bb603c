import { Context } from '@temporalio/activity';
import {
  costNanos,
  evaluatorParticipant,
  summaryOf,
  targetKey,
  UsageReport,
} from '../core/index.js';
import { type Evaluator, type FollowedRef, isSampled, type Subject } from '../evaluators/index.js';
import type { EvaluationEntry } from '../store/index.js';
import type { Admission } from './budget-guard.js';
import { deployed, type EvaluationContext, ledgerKey, settle } from './evaluation-context.js';
import { describeEvaluationSpan } from './evaluation-span.js';
import { asActivityFailure, FailureType, terminal } from './failures.js';
import { giveFeedback } from './give-feedback.js';
import { loadSubject, loadTurnToJudge, type TurnToJudge } from './load-subject.js';
import type { EvaluateInput, EvaluateResult } from './types.js';

/** The ids an operator looks an evaluation up by (`evalflow ledger`, Temporal's UI). */
type EvaluationIds = Record<string, string | number>;

/**
 * Judges one target with one evaluator version, and with `record` gives the verdict too;
 * terminal failures are non-retryable.
 */
export async function evaluate(
  evaluation: EvaluationContext,
  input: EvaluateInput,
): Promise<EvaluateResult> {
  const { deps, budgets } = evaluation;
  const evaluator = await deployed(evaluation, input);
  const ready = await subjectToJudge(evaluation, input, evaluator);
  if ('outcome' in ready) return ready;
  const { subject, key } = ready;
  describeEvaluationSpan(input, subject);
  const context = Context.current();
  const attempt = context.info.attempt;
  const attemptKey = { workspace_id: input.workspaceId, ...ledgerKey(input), attempt };
  const { admission, held } = await budgets.admit(attemptKey, evaluator);
  const ids = {
    workspace: input.workspaceId,
    target: key,
    evaluator: evaluator.participant,
    generation: input.generation,
    attempt,
    workflow: input.workflowId,
  };
  if (!admission.admitted) return heldBack(evaluation, input, admission, ids);
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
    deps.store.usage.recordAttempt({ ...attemptKey, duration_ms, failed });
  const usage = usageReporter(evaluation, evaluator, attemptKey);
  let verdict: unknown;
  try {
    verdict = await evaluator.evaluate(subject, {
      participant: evaluator.participant,
      attempt,
      signal: context.cancellationSignal,
      reportUsage: usage.report,
    });
  } catch (error) {
    finished('failed', performance.now() - judging, (error as Error).message ?? String(error));
    deps.observer?.judged(evaluator, (performance.now() - judging) / 1000, true);
    await recordAttempt(true);
    await budgets.settle(attemptKey, usage.spentNanos(), held);
    throw asActivityFailure(error);
  }
  const duration_ms = performance.now() - judging;
  await budgets.settle(attemptKey, usage.spentNanos(), held);
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
  await giveFeedback(evaluation, { ...input, value }, { attempt, duration_ms });
  finished('recorded', duration_ms);
  return { outcome: 'recorded' };
}

/**
 * The subject the evaluator judges, or the outcome when it judges none: the evaluation settled
 * already, the target sampled out (by the live versions a shadow follows, or the rule's rate),
 * or skipped (gone, or of a kind left out).
 */
async function subjectToJudge(
  evaluation: EvaluationContext,
  input: EvaluateInput,
  evaluator: Evaluator,
): Promise<EvaluateResult | { subject: Subject; key: string }> {
  const { deps } = evaluation;
  const { target } = input;
  const turn = target.kind === 'turn' ? await sharedTurn(evaluation, input, target.run_id) : null;
  const settled = await settledBefore(evaluation, input, turn);
  if (settled !== null) return { outcome: 'settled', state: settled.state };
  // The rule's sample rate, pinned with the plan; a re-evaluation judges everything.
  const rate = input.evaluator.sampleRate ?? 1;
  const key = targetKey(input.target);
  // A shadow version judges only what a live version it follows judges, then its own sample.
  const followed = followedOn(input, key);
  if (followed !== null && followed.length === 0) {
    const shadowed = input.evaluator.shadowOf ?? [];
    await settle(
      evaluation,
      input,
      'sampled_out',
      `outside what the live versions judge (${listOf(shadowed)})`,
    );
    return { outcome: 'sampled_out' };
  }
  if (!isSampled(evaluator.participant, key, rate)) {
    await settle(evaluation, input, 'sampled_out', `outside the sample rate ${rate}`);
    return { outcome: 'sampled_out' };
  }
  const subject =
    target.kind === 'turn'
      ? (turn?.subject ?? null)
      : await loadSubject(deps.store, input.workspaceId, input.target, input.throughSeq);
  const skipped = skipReason(input, subject, followed);
  if (skipped !== null || subject === null) {
    const reason = skipped ?? `the ${input.target.kind} does not exist`;
    await settle(evaluation, input, 'skipped', reason);
    return { outcome: 'skipped', reason };
  }
  return { subject, key };
}

/**
 * A run's turn with the ledger's entries on it, read once for the evaluators one workflow
 * execution starts on it (keyed by the execution, so a new one reads afresh).
 */
function sharedTurn(
  { deps, turns }: EvaluationContext,
  input: EvaluateInput,
  run_id: string,
): Promise<TurnToJudge | null> {
  const execution = Context.current().info.workflowExecution?.runId;
  const key = `${input.workspaceId}|${input.workflowId}|${execution}|${input.generation}|${run_id}`;
  return turns(key, () => loadTurnToJudge(deps.store, input.workspaceId, run_id, input.generation));
}

/**
 * The ledger's entry when the evaluation is settled already. A first attempt reads it in the
 * turn's shared snapshot: one workflow execution schedules each evaluation once, so only a retry
 * can find it settled since (by its own earlier attempt), and a retry reads the ledger afresh.
 */
async function settledBefore(
  { deps }: EvaluationContext,
  input: EvaluateInput,
  turn: TurnToJudge | null,
): Promise<EvaluationEntry | null> {
  const key = ledgerKey(input);
  if (turn !== null && Context.current().info.attempt === 1) {
    return turn.settled.find((entry) => entry.participant === key.participant) ?? null;
  }
  return deps.store.ledger.evaluation(input.workspaceId, key);
}

/** An evaluation its budget refuses: deferred to the budget's next period, or skipped. */
async function heldBack(
  evaluation: EvaluationContext,
  input: EvaluateInput,
  admission: Extract<Admission, { admitted: false }>,
  ids: EvaluationIds,
): Promise<EvaluateResult> {
  evaluation.deps.log?.info(
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
  await settle(evaluation, input, 'skipped', admission.reason);
  return { outcome: 'skipped', reason: admission.reason };
}

/** Records each usage the evaluator reports, priced, and sums what the attempt spent. */
function usageReporter(
  { deps }: EvaluationContext,
  evaluator: Evaluator,
  attemptKey: ReturnType<typeof ledgerKey> & { workspace_id: string; attempt: number },
) {
  let reports = 0;
  let spentNanos = 0;
  const report = async (usage: UsageReport) => {
    const parsed = UsageReport.safeParse(usage);
    if (!parsed.success) {
      throw terminal(
        `${evaluator.participant} reported invalid usage: ${summaryOf(parsed.error, Number.POSITIVE_INFINITY, '(usage)')}`,
        FailureType.invalidUsage,
      );
    }
    const { model, inputTokens, outputTokens } = parsed.data;
    const cost_nanos = costNanos(parsed.data, deps.pricing ?? {});
    await deps.store.usage.recordUsage({
      ...attemptKey,
      report: reports++,
      model,
      input_tokens: inputTokens,
      output_tokens: outputTokens,
      cost_nanos,
    });
    spentNanos += cost_nanos ?? 0;
    deps.observer?.used?.(evaluator, parsed.data, cost_nanos);
  };
  return { report, spentNanos: () => spentNanos };
}

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

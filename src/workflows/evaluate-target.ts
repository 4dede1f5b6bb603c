import {
  ActivityFailure,
  type ActivityOptions,
  ApplicationFailure,
  patched,
  proxyActivities,
  sleep,
} from '@temporalio/workflow';
import type { EvalflowActivities, EvaluateInput, EvaluationState } from '../activities/types.js';
import { HEARTBEAT_TIMEOUT, RETRY_SOON_THEN_BACK_OFF } from './activity-timing.js';

// Judging one target with one evaluator version: the shared step of evaluateRun and reevaluate.

const judgingOptions = {
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  // Transient failures back off and retry; a terminal one (a verdict its feedback type refuses,
  // an evaluator not deployed on this worker) is non-retryable and ends here.
  retry: { ...RETRY_SOON_THEN_BACK_OFF, maximumInterval: '1 minute', maximumAttempts: 6 },
} satisfies ActivityOptions;
type Judging = Pick<EvalflowActivities, 'evaluate'>;
const judging = proxyActivities<Judging>(judgingOptions);
// An evaluator with limits of its own judges on its queue, whose worker and rate limit enforce
// them. Refs without a queue schedule exactly as before, so recorded histories still replay.
const judgingOn = (taskQueue: string | undefined): Judging =>
  taskQueue === undefined ? judging : proxyActivities<Judging>({ ...judgingOptions, taskQueue });

const recording = proxyActivities<Pick<EvalflowActivities, 'giveFeedback' | 'settleEvaluation'>>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...RETRY_SOON_THEN_BACK_OFF, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/** The shortest wait between two tries of a deferred evaluation. */
const DEFERRAL_FLOOR_MS = 1000;

/** The patch id of judging and recording in one `evaluate` activity. */
export const RECORD_IN_EVALUATE = 'evaluate-records-verdict';

export interface EvaluationOutcome {
  state: EvaluationState;
  reason: string | null;
}

/**
 * Evaluates and gives the verdict as the evaluator. Both steps are idempotent: the verdict's
 * envelope id derives from the key, and a key settled in the ledger is never judged again.
 */
export async function evaluateTarget(input: EvaluateInput): Promise<EvaluationOutcome> {
  try {
    // One activity judges and records: half the activities and history of the two-step path,
    // which workflows started before this patch keep on replay.
    const record = patched(RECORD_IN_EVALUATE);
    const judge = () =>
      judgingOn(input.evaluator.taskQueue).evaluate(record ? { ...input, record } : input);
    let result = await judge();
    // A spent budget that defers: wait durably for its next period, then try again (at least a
    // second between tries, so a worker's clock behind the workflow's never spins).
    while (result.outcome === 'deferred') {
      await sleep(Math.max(result.untilMs - Date.now(), DEFERRAL_FLOOR_MS));
      result = await judge();
    }
    switch (result.outcome) {
      case 'recorded':
        return { state: 'recorded', reason: null };
      case 'verdict':
        await recording.giveFeedback({ ...input, value: result.value });
        return { state: 'recorded', reason: null };
      case 'settled':
        return { state: result.state, reason: null };
      case 'sampled_out':
        return { state: 'sampled_out', reason: null };
      case 'skipped':
        return { state: 'skipped', reason: result.reason };
    }
  } catch (error) {
    const reason = failureReason(error);
    await recording.settleEvaluation({ ...input, state: 'failed', reason });
    return { state: 'failed', reason };
  }
}

function failureReason(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure && cause.type) return `${cause.type}: ${cause.message}`;
  return cause instanceof Error ? cause.message : String(cause);
}

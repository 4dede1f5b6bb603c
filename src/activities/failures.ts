import { ApplicationFailure } from '@temporalio/activity';

/**
 * The types of the terminal failures the activities raise: workflows, the ledger and callers
 * match on these names. A store refusal is `FeedbackRejected.{rejection type}`.
 */
export const FailureType = {
  evaluatorNotDeployed: 'EvaluatorNotDeployed',
  invalidVerdict: 'InvalidVerdict',
  invalidUsage: 'InvalidUsage',
  feedbackRejected: 'FeedbackRejected',
} as const;
export type FailureType = (typeof FailureType)[keyof typeof FailureType];

/** A failure that retrying cannot mend. */
export const terminal = (message: string, type: string): ApplicationFailure =>
  ApplicationFailure.nonRetryable(message, type);

/**
 * The activities' one retry protocol, for errors from evaluators, sinks and judges alike: an
 * error that says `retryable: false` fails for good; one with `retryAfterMs` (a 429's
 * Retry-After) retries after that delay; anything else retries with the activity's backoff.
 */
export function asActivityFailure(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const { retryable, retryAfterMs } = error as { retryable?: unknown; retryAfterMs?: unknown };
  if (retryable === false) return terminal(error.message, error.name);
  if (typeof retryAfterMs === 'number') {
    return ApplicationFailure.create({
      message: error.message,
      type: error.name,
      nextRetryDelay: retryAfterMs,
      cause: error,
    });
  }
  return error;
}

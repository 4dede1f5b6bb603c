import { z } from 'zod';
import { type Rejection, validationFailed } from './rejections.js';

// Reported times (docs/specification.md#reported-times): when a run started or ended or a message
// was sent, by the reporter's clock, for history exported late or imported in bulk. The log's
// order stays the store's (seq), and so does the envelope's ts; only the recorded time changes.

/** How far ahead of the store's clock a reported time may be: the reporter's clock running fast. */
export const CLOCK_SKEW_MS = 5 * 60_000;

export const ReportedTime = z.iso.datetime({
  offset: true,
  error: 'a time is ISO-8601 with a zone (Z or ±hh:mm)',
});

/** A reported time's field, and what it is the time of in a refusal's words ("the end"). */
export interface TimeOf {
  field: 'started_at' | 'ended_at' | 'posted_at';
  what: string;
}

/**
 * A reported time as the store records it, or why it is refused. It is kept in the store's form
 * (`toISOString`, UTC), so stored times compare as text. Up to `CLOCK_SKEW_MS` ahead of `now` is
 * the reporter's clock running fast, recorded as `now`; further ahead is no report of something
 * that happened. Without `now` (no store deciding) the time is recorded as given.
 */
export function recordedTime(
  of: TimeOf,
  given: string | undefined,
  now: string | undefined,
): string | undefined | Rejection {
  if (given === undefined) return undefined;
  const at = Date.parse(given);
  if (now === undefined) return new Date(at).toISOString();
  const clock = Date.parse(now);
  if (at - clock > CLOCK_SKEW_MS) {
    const skew = `${CLOCK_SKEW_MS / 60_000} minutes`;
    return validationFailed(
      `${of.what} reported at ${given} is more than ${skew} ahead of the store's clock (${now})`,
      [{ path: [of.field], message: `more than ${skew} ahead of the store's clock` }],
    );
  }
  return new Date(Math.min(at, clock)).toISOString();
}

/** Refuses a recorded time before the run's start: its messages, resumptions and end follow it. */
export function beforeRunStart(
  of: TimeOf,
  at: string | undefined,
  run: { run_id: string; started_at: string },
): Rejection | null {
  if (at === undefined || Date.parse(at) >= Date.parse(run.started_at)) return null;
  return validationFailed(
    `${of.what} reported at ${at} precedes run ${run.run_id}'s start (${run.started_at})`,
    [{ path: [of.field], message: "before the run's start" }],
  );
}

/** Whether `recordedTime` refused the time. */
export const refusedTime = (value: string | undefined | Rejection): value is Rejection =>
  typeof value === 'object';

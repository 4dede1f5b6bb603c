// How soon an activity's work is tried again when its worker dies or it fails. Activity options
// are not part of a history's check: recorded histories replay under any values here.

/**
 * The heartbeat timeout of every activity. Each activity heartbeats on a timer from past half
 * this while it runs (`heartbeating` in the activities), so a worker that dies mid-activity has
 * its work retried this long after its start or its last beat (then after the retry's first
 * backoff), instead of after the whole start-to-close timeout (2 minutes for `evaluate`). Three
 * seconds puts a run's last verdict within 5 s of its end when a SIGKILL cuts its evaluations
 * short and the worker is back in 1.5 (`npm run bench:restart`); the SDK sends at most one beat
 * per 0.8 × this (2.4 s), and Temporal Cloud bills each beat, so a shorter timeout costs more.
 */
export const HEARTBEAT_TIMEOUT = '3 seconds';

/**
 * Every activity's retry backoff: the first retry soon, as it mostly follows a dead worker's
 * heartbeat timeout and a quarter second costs nothing, then fourfold (1 s, 4 s, 16 s, ...) so
 * that a failing judge or sink is not hammered. A policy adds its own cap and attempts.
 */
export const RETRY_SOON_THEN_BACK_OFF = {
  initialInterval: '250 milliseconds',
  backoffCoefficient: 4,
} as const;

/**
 * The heartbeat timeout of every activity. Each activity heartbeats on a timer while it runs
 * (`heartbeating` in the activities), so a worker that dies mid-activity has its work retried
 * this long after its last beat reached the server (then after the retry's 1 s backoff),
 * instead of after the whole start-to-close timeout (2 minutes for `evaluate`). Three seconds
 * puts a run's last verdict within 5 s of a SIGKILL when the worker is back in 2; the SDK sends
 * at most one beat per 0.8 × this (2.4 s), and Temporal Cloud bills each beat, so a shorter
 * timeout costs more. Activity options are not part of a history's check: recorded histories
 * replay under any value.
 */
export const HEARTBEAT_TIMEOUT = '3 seconds';

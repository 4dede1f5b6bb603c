/**
 * The heartbeat timeout of every activity. Each activity heartbeats on a timer while it runs
 * (`heartbeating` in the activities), so a worker that dies mid-activity has its work retried
 * this long after its last beat reached the server, instead of after the whole start-to-close
 * timeout (2 minutes for `evaluate`). Five seconds keeps recovery well inside 15 s of a restart;
 * the SDK sends at most one beat per 0.8 × this (4 s), which leaves a second for a beat to
 * reach the server, and Temporal Cloud bills each beat, so a shorter timeout costs more.
 */
export const HEARTBEAT_TIMEOUT = '5 seconds';

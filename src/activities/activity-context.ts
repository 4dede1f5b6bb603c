import { asyncLocalStorage } from '@temporalio/activity';
import type { Logger } from '@temporalio/common';

// What an activity takes from Temporal's activity context. Tests also call activities as plain
// functions, outside any context: then there is nothing to heartbeat and the console logs.

/**
 * Runs an activity with heartbeats on a timer, so a worker that dies mid-activity is noticed
 * within the activity's heartbeat timeout, not its start-to-close timeout, and its work retried
 * on a live worker. The beats say only that the process lives: an activity stuck in a live
 * process (an LLM that never answers) still ends at its start-to-close timeout. Without a
 * heartbeat timeout, or outside an activity, it runs as it is.
 */
export function heartbeating<I, O>(activity: (input: I) => Promise<O>): (input: I) => Promise<O> {
  return async (input) => {
    const context = asyncLocalStorage.getStore();
    const timeoutMs = context?.info.heartbeatTimeoutMs;
    if (context === undefined || !timeoutMs) return activity(input);
    // No beat until past half the timeout: until the first beat the timeout runs from the start,
    // so a worker that dies before it has its work retried a timeout after the start. A sooner
    // beat would only push that back by its own age, and cost a beat for every activity of a
    // second or two. From then on five ticks per timeout, so one delayed by a busy event loop
    // still lands in time; the SDK sends the server at most one beat per 0.8 × the timeout
    // whatever the rate here.
    const tickMs = Math.max(timeoutMs / 5, 100);
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
      if (ticks * tickMs > timeoutMs / 2) context.heartbeat();
    }, tickMs);
    try {
      return await activity(input);
    } finally {
      clearInterval(timer);
    }
  };
}

/** The running activity's logger (its records name the activity and workflow), else the console. */
export function activityLogger(): Pick<Logger, 'warn'> {
  return asyncLocalStorage.getStore()?.log ?? console;
}

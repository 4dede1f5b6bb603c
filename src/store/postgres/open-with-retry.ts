import { setTimeout as sleep } from 'node:timers/promises';
import { StoreOpenError } from '../errors.js';
import { isConnectionFailure, reasonOf } from './connection-failures.js';

export interface OpenRetryOptions {
  /** The server as `host:port`, for messages. */
  server: string;
  /** How long to wait for the server in all. */
  timeoutMs: number;
  /** Told what opening waits for: at the first failure, when the reason changes, every 10 s. */
  onWait?: (line: string) => void;
}

const FIRST_PAUSE_MS = 100;
const LONGEST_PAUSE_MS = 2_000;
const REPEAT_REPORT_MS = 10_000;

/**
 * Runs `attempt` until it succeeds, pausing with backoff after each failure that says the server
 * is not there yet; `attempt` gets the time left, to bound its own connect. Gives up with a
 * `StoreOpenError` at the deadline, or at once for a failure that waiting cannot fix.
 */
export async function openWithRetry<T>(
  attempt: (remainingMs: number) => Promise<T>,
  options: OpenRetryOptions,
): Promise<T> {
  const { server, timeoutMs, onWait } = options;
  const started = Date.now();
  let lastReport: { reason: string; at: number } | undefined;
  for (let attempts = 1, pause = FIRST_PAUSE_MS; ; attempts++, pause *= 2) {
    try {
      return await attempt(Math.max(timeoutMs - (Date.now() - started), 1));
    } catch (error) {
      const waited = Date.now() - started;
      const reason = reasonOf(error);
      if (!isConnectionFailure(error)) {
        throw new StoreOpenError(
          `Postgres at ${server} refused to open the store: ${reason}`,
          server,
          waited,
          attempts,
          { cause: error },
        );
      }
      const remaining = timeoutMs - waited;
      if (remaining <= 0) {
        throw new StoreOpenError(
          `Postgres at ${server} did not answer within ${seconds(timeoutMs)} (${reason})`,
          server,
          waited,
          attempts,
          { cause: error },
        );
      }
      const now = Date.now();
      if (
        lastReport === undefined ||
        lastReport.reason !== reason ||
        now - lastReport.at >= REPEAT_REPORT_MS
      ) {
        onWait?.(
          `waiting for Postgres at ${server} (${reason}); giving up in ${seconds(remaining)}`,
        );
        lastReport = { reason, at: now };
      }
      await sleep(Math.min(pause, LONGEST_PAUSE_MS, remaining));
    }
  }
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

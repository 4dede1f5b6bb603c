import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import type { TemporalConnectionOptions } from '../config/index.js';

// Temporal may still be starting when a process that needs it starts (the dev server beside
// `npm start`, a compose stack's `temporal` service on a slow machine): both the worker's
// connection and the API's client connection retry up to one deadline, saying once what they
// wait for, instead of failing on the SDK's single 10-second attempt.

/** How long a process waits for Temporal at start. */
export const TEMPORAL_WAIT_MS = 60_000;

export interface WaitOptions {
  /** When it stops waiting (default 60 s). */
  timeoutMs?: number;
  /** A dev server this process started: its exit ends the wait at once. */
  server?: ChildProcess | null;
  /** Told once, after the first failed attempt (default: nothing). */
  onWait?: (line: string) => void;
}

/** A client connection to Temporal, retried while Temporal starts. */
export const connectClientWhenReady = (
  temporal: string | TemporalConnectionOptions,
  options: WaitOptions = {},
): Promise<Connection> => whenReady(optionsOf(temporal), (o) => Connection.connect(o), options);

export const optionsOf = (
  temporal: string | TemporalConnectionOptions,
): TemporalConnectionOptions => (typeof temporal === 'string' ? { address: temporal } : temporal);

/** Runs `connect` until it succeeds or the wait's deadline passes. */
export async function whenReady<T>(
  temporal: TemporalConnectionOptions,
  connect: (options: TemporalConnectionOptions) => Promise<T>,
  { timeoutMs = TEMPORAL_WAIT_MS, server = null, onWait }: WaitOptions,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    if (server && server.exitCode !== null) {
      throw new Error(`the Temporal dev server exited with code ${server.exitCode}`);
    }
    try {
      return await connect(temporal);
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(
          `Temporal at ${temporal.address} did not answer within ${timeoutMs / 1000}s`,
          { cause: error },
        );
      }
      if (attempt === 1) {
        onWait?.(`waiting for Temporal at ${temporal.address} (up to ${timeoutMs / 1000}s)`);
      }
      await sleep(200);
    }
  }
}

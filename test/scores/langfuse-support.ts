// A fresh Langfuse test server per test, with a clock the test moves, and a check after each
// test that nothing broke Langfuse's spec.
import { afterEach, beforeEach, expect } from 'vitest';
import {
  LangfuseTestServer,
  type LangfuseTestServerOptions,
} from '../support/langfuse-server/index.js';

export interface ServerContext {
  server: LangfuseTestServer;
  /** The server's clock, in epoch milliseconds. */
  now: number;
}

export const START = Date.parse('2026-09-29T12:00:00.000Z');

export function useLangfuseServer(options: LangfuseTestServerOptions = {}): ServerContext {
  const context = { now: START } as ServerContext;
  beforeEach(async () => {
    context.now = START;
    context.server = await LangfuseTestServer.start({ now: () => context.now, ...options });
  });
  afterEach(async () => {
    const violations = context.server.violations();
    await context.server.close();
    expect(violations).toEqual([]);
  });
  return context;
}

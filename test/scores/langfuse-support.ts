// A fresh Langfuse test server per test, with a clock the test moves, and a check after each
// test that nothing broke Langfuse's spec.
import { afterEach, beforeEach, expect } from 'vitest';
import type { Score } from '../../src/scores/index.js';
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

export const trace = '4bf92f3577b34da6a3ce929d0e0e4736';

/** A NUMERIC score on \`trace\`, with whatever the test overrides. */
export function score(id: string, overrides: Partial<Score> = {}): Score {
  return {
    id,
    name: 'review.stars',
    value: 4,
    dataType: 'NUMERIC',
    traceId: trace,
    timestamp: '2026-09-29T10:00:00.000Z',
    source: {},
    ...overrides,
  };
}

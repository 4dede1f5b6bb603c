import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalflowClient } from '../../src/client/index.js';
import { defineConfig } from '../../src/config/index.js';
import { answerLengthEvaluator } from '../../src/evaluators/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { devServerEnvironment } from '../support/temporal.js';

// GET /v1/threads and GET /v1/runs through the real API and the HTTP client: pages, filters,
// the evaluation summary, and refusals.

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let client: EvalflowClient;
const app = defineConfig({
  evaluators: [answerLengthEvaluator()],
  rules: [{ evaluator: 'answer_length@1' }],
});

beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, app);
  client = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('system') });
  for (const thread of ['t-b', 't-a', 't-c']) await client.createThread({ threadId: thread });
  for (const [threadId, runId] of [
    ['t-a', 'r1'],
    ['t-b', 'r2'],
    ['t-a', 'r3'],
  ] as const) {
    await client.startRun(threadId, { runId });
  }
  await client.postMessage('t-a', {
    messageId: 'answer-1',
    role: 'ROLE_ASSISTANT',
    content: 'Done.',
    runId: 'r1',
  });
  await client.endRun('r1', { status: 'completed' });
  await client.pauseRun('r2');
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

describe('the lists', () => {
  it('pages threads by id', async () => {
    const first = await client.threads({ limit: 2 });
    expect(first.threads.map((t) => t.threadId)).toEqual(['t-a', 't-b']);
    expect(first.nextCursor).not.toBeNull();
    const second = await client.threads({ limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.threads.map((t) => t.threadId)).toEqual(['t-c']);
    expect(second.nextCursor).toBeNull();
  });

  it('lists runs newest first, filtered, each with its evaluation summary', async () => {
    const ids = async (query: Parameters<EvalflowClient['runs']>[0]) =>
      (await client.runs(query)).runs.map((r) => r.run.runId);
    expect(await ids({})).toEqual(['r3', 'r2', 'r1']);
    expect(await ids({ threadId: 't-a' })).toEqual(['r3', 'r1']);
    expect(await ids({ status: 'paused' })).toEqual(['r2']);
    expect(await ids({ endedFrom: '2000-01-01T00:00:00Z' })).toEqual(['r1']);
    expect(await ids({ startedBefore: '2000-01-01T00:00:00+01:00' })).toEqual([]);
    const page = await client.runs({ limit: 2 });
    expect(page.runs.map((r) => r.run.runId)).toEqual(['r3', 'r2']);
    const rest = await client.runs({ limit: 2, cursor: page.nextCursor ?? '' });
    expect(rest.runs.map((r) => r.run.runId)).toEqual(['r1']);
    // The ended run's answer is judged: its summary counts the recorded verdict.
    await expect
      .poll(async () => (await client.runs({ status: 'completed' })).runs[0]?.evaluations, {
        timeout: 30_000,
      })
      .toEqual({ recorded: 1, sampled_out: 0, failed: 0, skipped: 0 });
    expect((await client.runs({ status: 'running' })).runs[0]?.evaluations).toEqual({
      recorded: 0,
      sampled_out: 0,
      failed: 0,
      skipped: 0,
    });
  });

  it('refuses a cursor it did not give, a bad status or instant, and a user key', async () => {
    const system = await h.key('system');
    const bad = await h.call('GET', '/v1/runs?cursor=not-a-cursor', { key: system });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ type: 'bad_request' });
    expect((await h.call('GET', '/v1/runs?status=done', { key: system })).status).toBe(422);
    expect((await h.call('GET', '/v1/runs?startedFrom=yesterday', { key: system })).status).toBe(
      422,
    );
    expect((await h.call('GET', '/v1/threads?limit=0', { key: system })).status).toBe(422);
    const user = await h.key('user:ada');
    expect((await h.call('GET', '/v1/runs', { key: user })).status).toBe(403);
  });
});

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineConfig, loadConfig } from '../../src/config/index.js';
import { answerLengthEvaluator } from '../../src/evaluators/index.js';
import { operationsLog } from '../../src/metrics/index.js';
import { startEngine } from '../../src/worker/index.js';
import { captured } from '../support/captured-stream.js';
import { devServerEnvironment, sharedTemporalEnv, uniqueTaskQueue } from '../support/temporal.js';

// An engine given its state folder caches the workflow bundle there: the first start bundles, the
// next starts from the cache and its worker runs workflows; each start logs its phases.

let env: TestWorkflowEnvironment;
const dir = mkdtempSync(join(tmpdir(), 'evalflow-cached-bundle-'));
const home = join(dir, 'home');
beforeAll(async () => {
  env = await devServerEnvironment();
});
afterAll(async () => {
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

it('restarts from the cached workflow bundle, judges a run, and logs each start phase', async () => {
  const config = loadConfig({
    ...sharedTemporalEnv(env),
    EVALFLOW_TASK_QUEUE: uniqueTaskQueue('cached-bundle'),
    EVALFLOW_SQLITE_PATH: join(dir, 'evalflow.db'),
    EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
    EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
  });
  const app = defineConfig({
    evaluators: [answerLengthEvaluator()],
    rules: [{ evaluator: 'answer_length@1' }],
  });
  const start = async () => {
    const operations = captured();
    const engine = await startEngine({
      config,
      app,
      temporal: { address: env.address },
      home,
      relayPollMs: 100,
      log: () => {},
      operations: operationsLog({ format: 'json', stream: operations.stream }),
    });
    const phases = () => operations.json().filter((line) => line.event === 'engine.start');
    return { engine, phases };
  };

  const first = await start();
  await first.engine.stop();
  expect(first.phases().find((line) => line.phase === 'workflow_bundle')).toMatchObject({
    source: 'bundled',
  });
  expect(readdirSync(join(home, 'workflow-bundles'))).toEqual([
    expect.stringMatching(/^plain-[0-9a-f]{32}\.js$/),
  ]);

  const second = await start();
  const { store } = second.engine.deps;
  const agent = { kind: 'agent', thread_id: 't' } as const;
  for (const command of [
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    { type: 'post_message', thread_id: 't', run_id: 'r', role: 'assistant', content: 'Done.' },
    { type: 'end_run', run_id: 'r', status: 'completed' },
  ] as const) {
    await store.execute({ workspace_id: 'ws', actor: agent, command });
  }
  await expect
    .poll(async () => (await store.ledger.evaluations('ws')).map((e) => e.state), {
      timeout: 30_000,
    })
    .toEqual(['recorded']);
  await second.engine.stop();

  // Every phase once, in order of their ends, the bundle's beside the store and Temporal.
  const phases = second.phases();
  expect(phases.map((line) => line.phase).sort()).toEqual(
    ['polling', 'store', 'temporal', 'workers', 'workflow_bundle'].sort(),
  );
  expect(phases.find((line) => line.phase === 'workflow_bundle')).toMatchObject({
    source: 'cache',
    msg: 'engine start: workflow bundle',
  });
  const sequential = phases.filter((line) => line.phase !== 'workflow_bundle');
  expect(sequential.map((line) => line.phase)).toEqual(['store', 'temporal', 'workers', 'polling']);
  for (const line of phases) {
    expect(line).toEqual(
      expect.objectContaining({ ms: expect.any(Number), total_ms: expect.any(Number) }),
    );
    expect(line.ms).toBeLessThanOrEqual(line.total_ms as number);
  }
  const totals = sequential.map((line) => line.total_ms as number);
  expect(totals).toEqual([...totals].sort((a, b) => a - b));
  // The phases add up to the start: the sequential ones end where the next begins.
  const sum = sequential.reduce((ms, line) => ms + (line.ms as number), 0);
  expect(Math.abs(sum - (totals.at(-1) ?? 0))).toBeLessThanOrEqual(sequential.length);
});

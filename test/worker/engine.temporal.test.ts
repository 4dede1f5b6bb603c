import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineConfig, loadConfig } from '../../src/config/index.js';
import { answerLengthEvaluator } from '../../src/evaluators/index.js';
import { operationsLog } from '../../src/metrics/index.js';
import { startEngine } from '../../src/worker/index.js';
import { captured } from '../support/captured-stream.js';
import {
  devServerEnvironment,
  sharedTemporalEnv,
  uniqueTaskQueue,
  workflowBundle,
} from '../support/temporal.js';

// A host runs the whole worker process with one call, as `evalflow start` and `evalflow worker`
// do: the engine opens the store and the score sink, polls Temporal, relays each workspace's log,
// and stops whole.

let env: TestWorkflowEnvironment;
const dir = mkdtempSync(join(tmpdir(), 'evalflow-engine-'));
beforeAll(async () => {
  env = await devServerEnvironment();
});
afterAll(async () => {
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

it('judges a host’s run and mirrors its verdict with one call, then stops whole', async () => {
  const config = loadConfig({
    ...sharedTemporalEnv(env),
    EVALFLOW_TASK_QUEUE: uniqueTaskQueue('engine'),
    EVALFLOW_SQLITE_PATH: join(dir, 'evalflow.db'),
    EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
    EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
  });
  const app = defineConfig({
    evaluators: [answerLengthEvaluator()],
    rules: [{ evaluator: 'answer_length@1' }],
  });
  const lines: string[] = [];
  const operations = captured();
  const engine = await startEngine({
    config,
    app,
    temporal: { address: env.address },
    relayPollMs: 100,
    workflowBundle: workflowBundle(),
    log: (line) => lines.push(line),
    operations: operationsLog({ format: 'json', stream: operations.stream }),
  });
  const { store } = engine.deps;
  const agent = { kind: 'agent', thread_id: 't' } as const;
  for (const command of [
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    { type: 'post_message', thread_id: 't', run_id: 'r', role: 'assistant', content: 'Done.' },
    { type: 'end_run', run_id: 'r', status: 'completed' },
  ] as const) {
    expect((await store.execute({ workspace_id: 'ws', actor: agent, command })).type).toBe(
      'recorded',
    );
  }
  await expect
    .poll(async () => (await store.ledger.evaluations('ws')).map((e) => e.state), {
      timeout: 30_000,
    })
    .toEqual(['recorded']);
  await expect
    .poll(() => readFileSync(join(dir, 'scores.jsonl'), 'utf8').includes('answer_length'), {
      timeout: 30_000,
    })
    .toBe(true);
  expect(lines).toContain('relaying workspace ws');
  // The operations log said what it found at start (nothing) and what it judged.
  const events = (event: string) => operations.json().filter((line) => line.event === event);
  expect(events('engine.resumed')).toEqual([
    expect.objectContaining({ runEvaluations: 0, batches: 0, relayBacklog: 0 }),
  ]);
  expect(events('evaluation.finished')).toEqual([
    expect.objectContaining({
      workspace: 'ws',
      evaluator: 'evaluator:answer_length@1',
      outcome: 'recorded',
    }),
  ]);
  // A run left open: its workflow waits for its end, and the next engine takes it up.
  await store.execute({
    workspace_id: 'ws',
    actor: agent,
    command: { type: 'start_run', run_id: 'open', thread_id: 't' },
  });
  const open = `TaskQueue = "${config.taskQueue}" AND WorkflowType = "evaluateRun" AND ExecutionStatus = "Running"`;
  await expect.poll(async () => (await env.client.workflow.count(open)).count).toBe(1);
  await engine.stop();
  await expect(engine.done).resolves.toBeUndefined();
  // Stopped whole: the store is closed, and a second engine may open the SQLite file.
  const resumed = captured();
  const next = await startEngine({
    config,
    app,
    temporal: { address: env.address },
    workflowBundle: workflowBundle(),
    log: () => {},
    operations: operationsLog({ format: 'json', stream: resumed.stream }),
  });
  await next.stop();
  expect(resumed.json().filter((line) => line.event === 'engine.resumed')).toEqual([
    expect.objectContaining({ msg: 'engine resumed what was in flight', runEvaluations: 1 }),
  ]);
});

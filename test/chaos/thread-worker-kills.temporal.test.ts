import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_CURSOR } from '../../src/relay/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { evaluateThreadWorkflowId } from '../../src/workflows/evaluate-thread-messages.js';
import { eventually } from '../support/processes.js';
import { devServerEnvironment, sharedTemporalEnv, uniqueTaskQueue } from '../support/temporal.js';
import app from '../support/thread-judges.config.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-processes.js';

// `evalflow worker` SIGKILLed while threads wait to go quiet, and while their evaluations run:
// the worker started after it judges every thread once, and nothing is judged twice.

const config = fileURLToPath(new URL('../support/thread-judges.config.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'evalflow-thread-kills-'));
const storePath = join(dir, 'evalflow.db');
let env: TestWorkflowEnvironment;
let host: Store;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  env = await devServerEnvironment();
  host = openSqliteStore(storePath, { ...app, pollMs: 50 });
});
// SQLite serves one engine process at a time: each test's last worker goes with it.
const stopWorkers = async () => {
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.splice(0).map((worker) => worker.exited));
};
afterEach(stopWorkers);
afterAll(async () => {
  await stopWorkers();
  await host?.close();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

/** An `evalflow worker` on the test's store and dev server; resolves once it polls. */
async function worker(taskQueue: string, judgeMs: number): Promise<WorkerProcess> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(EVALFLOW_|TEMPORAL_|DATABASE_URL$|LANGFUSE_)/.test(name),
    ),
  );
  const started = startWorkerProcess({
    cwd: dir,
    env: {
      ...inherited,
      ...sharedTemporalEnv(env),
      EVALFLOW_TASK_QUEUE: taskQueue,
      EVALFLOW_CONFIG: config,
      EVALFLOW_SQLITE_PATH: storePath,
      EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
      EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
      EVALFLOW_TEST_IDLE_FOR: '2s',
      EVALFLOW_TEST_JUDGE_MS: String(judgeMs),
    },
  });
  workers.push(started);
  await started.ready;
  return started;
}

async function kill(process: WorkerProcess) {
  process.child.kill('SIGKILL');
  await process.exited;
}

const host_ = { kind: 'system', name: 'host' };
/** Threads t0..t{count-1} in `ws`, each a question and an answer. */
async function conversations(ws: string, count: number) {
  for (let i = 0; i < count; i++) {
    for (const command of [
      { type: 'create_thread', thread_id: `t${i}` },
      { type: 'post_message', thread_id: `t${i}`, role: 'user', content: 'Where is my refund?' },
      { type: 'post_message', thread_id: `t${i}`, role: 'assistant', content: 'On its way.' },
    ]) {
      const outcome = await host.executeUnchecked({ workspace_id: ws, actor: host_, command });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
    }
  }
}

/** How many verdicts each thread has, and how many ledger entries in each state. */
async function verdicts(ws: string, count: number) {
  const perThread = await Promise.all(
    Array.from(
      { length: count },
      async (_, i) =>
        (await host.feedback(ws, { target: { kind: 'thread', thread_id: `t${i}` } })).length,
    ),
  );
  const states = (await host.ledger.evaluations(ws)).map((e) => e.state);
  return {
    perThread,
    recorded: states.filter((s) => s === 'recorded').length,
    entries: states.length,
  };
}

/**
 * Resolves once every thread's workflow waits on its timer (`timer`), or has scheduled its
 * evaluation (`evaluate`), which a live worker then takes at once.
 */
async function allReached(ws: string, count: number, step: 'timer' | 'evaluate') {
  const reached = (
    events: {
      timerStartedEventAttributes?: unknown;
      activityTaskScheduledEventAttributes?: {
        activityType?: { name?: string | null } | null;
      } | null;
    }[],
  ) =>
    events.some((e) =>
      step === 'timer'
        ? e.timerStartedEventAttributes
        : e.activityTaskScheduledEventAttributes?.activityType?.name === 'evaluate',
    );
  await eventually(
    async () => {
      let count_ = 0;
      for (let i = 0; i < count; i++) {
        const handle = env.client.workflow.getHandle(
          evaluateThreadWorkflowId(host.id, ws, `t${i}`),
        );
        const events = await handle.fetchHistory().then(
          (h) => h.events ?? [],
          () => [],
        );
        if (reached(events)) count_ += 1;
      }
      return count_;
    },
    (n) => n === count,
    60_000,
  );
}

/**
 * Resolves once nothing is left that could judge again: the relay has relayed the whole log
 * (its cursor at the head) and every thread's latest workflow has completed. Their verdicts
 * read after this are final.
 */
async function settled(ws: string, count: number) {
  const state = async () => {
    const relayed = (await host.cursor(ws, RELAY_CURSOR)) >= (await host.head(ws));
    const statuses = await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const handle = env.client.workflow.getHandle(
          evaluateThreadWorkflowId(host.id, ws, `t${i}`),
        );
        return (await handle.describe()).status.name;
      }),
    );
    return { relayed, open: statuses.filter((s) => s !== 'COMPLETED').length };
  };
  const last = await eventually(state, (s) => s.relayed && s.open === 0, 60_000);
  expect(last).toEqual({ relayed: true, open: 0 });
}

describe('threads through a worker killed', () => {
  const count = 10;

  it('judges each thread once when its worker dies while the threads wait to go quiet', async () => {
    const taskQueue = uniqueTaskQueue('thread-kills-wait');
    const first = await worker(taskQueue, 0);
    const ws = 'killed-waiting';
    await conversations(ws, count);
    await allReached(ws, count, 'timer');
    await kill(first);
    await worker(taskQueue, 0);
    const done = await eventually(
      () => verdicts(ws, count),
      (v) => v.recorded === count,
      90_000,
    );
    expect(done).toEqual({ perThread: Array(count).fill(1), recorded: count, entries: count });
    // And nothing more comes of it: once nothing is left to judge, the verdicts stand.
    await settled(ws, count);
    expect(await verdicts(ws, count)).toEqual(done);
    const [one] = await host.feedback(ws, { target: { kind: 'thread', thread_id: 't0' } });
    expect(one?.value).toEqual({ resolved: true, messages: 2 });
  });

  it('judges each thread once when its worker dies while their evaluations run', async () => {
    const taskQueue = uniqueTaskQueue('thread-kills-judging');
    // The first worker's judgements never finish: the kill lands while every one is in flight.
    const first = await worker(taskQueue, 3_600_000);
    const ws = 'killed-judging';
    await conversations(ws, count);
    await allReached(ws, count, 'evaluate');
    expect((await verdicts(ws, count)).recorded).toBe(0);
    await kill(first);
    await worker(taskQueue, 200);
    const done = await eventually(
      () => verdicts(ws, count),
      (v) => v.recorded === count,
      120_000,
    );
    expect(done).toEqual({ perThread: Array(count).fill(1), recorded: count, entries: count });
    await settled(ws, count);
    expect(await verdicts(ws, count)).toEqual(done);
  });
});

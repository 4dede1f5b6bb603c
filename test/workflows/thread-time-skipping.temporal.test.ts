import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActivities } from '../../src/activities/create-activities.js';
import {
  createFeedbackTypeRegistry,
  defineFeedbackType,
  type EvaluationRule,
} from '../../src/core/index.js';
import { createEvaluatorRegistry, defineEvaluator } from '../../src/evaluators/index.js';
import { TriggerRelay } from '../../src/relay/relay.js';
import {
  openPostgresStore,
  openSqliteStore,
  type Store,
  type StoreOptions,
} from '../../src/store/index.js';
import { InMemoryScoreSink } from '../../src/testing/index.js';
import { MAX_CACHED_WORKFLOWS } from '../../src/worker/create-worker.js';
import type { evaluateThread } from '../../src/workflows/evaluate-thread.js';
import {
  evaluateThreadWorkflowId,
  threadStateQuery,
} from '../../src/workflows/evaluate-thread-messages.js';
import { mirrorWorkflowId } from '../../src/workflows/mirror-messages.js';
import { eventTimeMs } from '../support/history-chain.js';
import { dropSchema, freshSchemaName } from '../support/postgres.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../support/postgres-cluster.js';
import {
  recordHistory,
  testWorker,
  timeSkippingEnvironment,
  uniqueTaskQueue,
} from '../support/temporal.js';

// Threads judged when they go quiet, on the time-skipping server: a rule with a thread evaluator
// and `idleFor: '30m'`, on SQLite and on Postgres. The thread's workflow closes once it has
// judged all it was given, so awaiting its result lets the server skip to its timer.

const MINUTE = 60_000;

/** What the evaluator was handed, per judgement: the generation and the messages it read. */
const judged: { thread: string; through: number; messages: string[] }[] = [];

const resolutionFeedback = defineFeedbackType({
  name: 'resolution',
  targets: ['thread'],
  schema: z.object({ resolved: z.boolean(), messages: z.int() }),
});
const resolution = defineEvaluator({
  name: 'resolution',
  version: '1',
  feedbackType: resolutionFeedback,
  targets: ['thread'],
  source: 'JUDGE',
  async evaluate(subject) {
    if (subject.kind !== 'thread') throw new TypeError(`expected a thread, got a ${subject.kind}`);
    const messages: { id: string; role: string }[] = [];
    for await (const page of subject.pages()) {
      for (const entry of page) {
        if (entry.kind === 'message') {
          messages.push({ id: entry.message.message_id, role: entry.message.role });
        }
      }
    }
    judged.push({
      thread: subject.thread.thread_id,
      through: subject.through_seq,
      messages: messages.map((m) => m.id),
    });
    return { resolved: messages.at(-1)?.role === 'assistant', messages: messages.length };
  },
});

const rules: EvaluationRule[] = [
  {
    evaluator: 'resolution@1',
    targets: ['thread'],
    sample_rate: 1,
    filter: {},
    enabled: true,
    idle_for: '30m',
  },
];
const storeOptions: StoreOptions = {
  feedbackTypes: createFeedbackTypeRegistry([resolutionFeedback]),
  evaluators: createEvaluatorRegistry([resolution]),
  pollMs: 50,
};

let env: TestWorkflowEnvironment;
let cluster: ThrowawayCluster | undefined;
let databaseUrl = '';
const schema = freshSchemaName();
const dir = mkdtempSync(join(tmpdir(), 'evalflow-threads-'));
beforeAll(async () => {
  env = await timeSkippingEnvironment();
  cluster = process.env.DATABASE_URL ? undefined : await startThrowawayCluster();
  databaseUrl = process.env.DATABASE_URL ?? cluster?.url ?? '';
});
afterAll(async () => {
  if (cluster === undefined && databaseUrl) await dropSchema(databaseUrl, schema);
  cluster?.stop();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

const backends: [string, () => Promise<Store>][] = [
  ['SQLite', async () => openSqliteStore(join(dir, 'threads.db'), storeOptions)],
  ['Postgres', () => openPostgresStore({ databaseUrl, schema }, storeOptions)],
];

describe.each(backends)('judging threads when they go quiet, on %s', (_backend, open) => {
  let store: Store;
  let taskQueue: string;
  let activities: ReturnType<typeof createActivities>;
  beforeAll(async () => {
    store = await open();
    activities = createActivities({
      store,
      evaluators: createEvaluatorRegistry([resolution]),
      feedbackTypes: storeOptions.feedbackTypes,
      scoreSink: new InMemoryScoreSink(),
      scoreReader: null,
    });
  });
  afterAll(async () => {
    await store?.close();
  });

  // A relay that passes a verdict on starts the workspace's mirror, whose timers would fire later
  // with no worker to take them and hold the test server's clock still for the tests after.
  const workspaces: string[] = [];
  afterEach(async () => {
    for (const ws of workspaces.splice(0)) {
      await env.client.workflow
        .getHandle(mirrorWorkflowId(store.id, ws))
        .terminate('the test is over')
        .catch(() => {});
    }
  });

  let counter = 0;
  /** A fresh workspace with thread `t`, its relay and its workflow's handle. */
  async function thread() {
    const ws = `threads-${++counter}-${Date.now().toString(36)}`;
    workspaces.push(ws);
    taskQueue = uniqueTaskQueue('threads');
    await tell(ws, { type: 'create_thread', thread_id: 't' });
    const relay = new TriggerRelay({
      store,
      client: env.client,
      taskQueue,
      workspaceId: ws,
      rules,
    });
    const handle: WorkflowHandle<typeof evaluateThread> = env.client.workflow.getHandle(
      evaluateThreadWorkflowId(store.id, ws, 't'),
    );
    return { ws, relay, handle };
  }
  const tell = async (ws: string, ...commands: object[]) => {
    for (const command of commands) {
      const outcome = await store.executeUnchecked({
        workspace_id: ws,
        actor: { kind: 'system', name: 'host' },
        command,
      });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
    }
  };
  let messages = 0;
  const message = (role: 'user' | 'assistant', run_id: string | null = null) => ({
    type: 'post_message',
    thread_id: 't',
    message_id: `m${++messages}`,
    role,
    content: role === 'user' ? 'Where is my refund?' : 'On its way.',
    run_id,
  });
  const verdicts = async (ws: string) =>
    (await store.feedback(ws, { target: { kind: 'thread', thread_id: 't' } })).map((r) => ({
      value: r.value,
      participant: r.participant,
      source: r.source,
    }));
  const ledger = async (ws: string) =>
    (await store.ledger.evaluations(ws)).map((e) => [e.generation, e.target_key, e.state]);
  /**
   * How long the thread was quiet before it was judged, in workflow time: from the last signal
   * its (last) workflow took to the scheduling of its first evaluation.
   */
  const quietBeforeJudged = async (handle: WorkflowHandle) => {
    const events = (await handle.fetchHistory()).events ?? [];
    const judging = events.findIndex(
      (e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'evaluate',
    );
    const signal = events
      .slice(0, judging)
      .findLast((e) => e.workflowExecutionSignaledEventAttributes);
    if (judging < 0 || signal === undefined) throw new Error('not judged after a signal');
    return eventTimeMs(events[judging] as (typeof events)[number]) - eventTimeMs(signal);
  };
  const timersFired = async (handle: WorkflowHandle) =>
    ((await handle.fetchHistory()).events ?? []).filter((e) => e.timerFiredEventAttributes).length;

  it('judges a conversation once it has been quiet for 30 minutes, and once only', async () => {
    const { ws, relay, handle } = await thread();
    judged.length = 0;
    const worker = await testWorker(env, taskQueue, activities);
    const state = await worker.runUntil(async () => {
      await tell(
        ws,
        { type: 'start_run', run_id: 'r1', thread_id: 't' },
        message('user', 'r1'),
        message('assistant', 'r1'),
        { type: 'end_run', run_id: 'r1', status: 'completed' },
      );
      await relay.drain();
      return handle.result();
    });
    await recordHistory(handle, 'evaluateThread');
    // Judged when the thread had been quiet for 30 minutes (its run ended at seq 5), not sooner.
    const quiet = await quietBeforeJudged(handle);
    expect(quiet).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(quiet).toBeLessThan(31 * MINUTE);
    expect(state.latest['resolution@1']).toMatchObject({
      generation: 'thread:5',
      throughSeq: 5,
      state: 'recorded',
    });
    expect(judged).toEqual([
      { thread: 't', through: 5, messages: [`m${messages - 1}`, `m${messages}`] },
    ]);
    expect(await verdicts(ws)).toEqual([
      {
        value: { resolved: true, messages: 2 },
        participant: 'evaluator:resolution@1',
        source: 'JUDGE',
      },
    ]);
    expect(await ledger(ws)).toEqual([['thread:5', 'thread:t', 'recorded']]);
    // Its relay sending the page again (it stopped before saving its cursor) starts a workflow
    // that repeats nothing.
    await relay.relayPage(await store.events({ workspace_id: ws, limit: 5 }));
    const again = await (await testWorker(env, taskQueue, activities)).runUntil(handle.result());
    expect(again.lastSeq).toBe(5);
    expect(Object.keys(again.latest)).toEqual([]);
    expect(await verdicts(ws)).toHaveLength(1);
    expect(judged).toHaveLength(1);
  });

  it('waits 30 minutes from the last message: one posted before the timer resets it', async () => {
    const { ws, relay, handle } = await thread();
    judged.length = 0;
    const worker = await testWorker(env, taskQueue, activities);
    const state = await worker.runUntil(async () => {
      await tell(ws, message('user'));
      await relay.drain();
      await env.sleep(20 * MINUTE);
      await tell(ws, message('assistant'));
      await relay.drain();
      await env.sleep(20 * MINUTE);
      // 40 minutes after the first message, 20 after the second: not quiet long enough.
      const waiting = await handle.query(threadStateQuery);
      expect(Object.keys(waiting.open)).toEqual(['resolution@1']);
      expect(await verdicts(ws)).toEqual([]);
      return handle.result();
    });
    // 30 minutes after the second message, whose signal is the last the workflow took.
    const quiet = await quietBeforeJudged(handle);
    expect(quiet).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(quiet).toBeLessThan(31 * MINUTE);
    expect(state.latest['resolution@1']?.generation).toBe('thread:3');
    expect(judged).toHaveLength(1);
    expect(judged[0]?.messages).toHaveLength(2);
    // One timer fired, once the thread was quiet: the second message did not start another.
    expect(await timersFired(handle)).toBe(2);
  });

  it('judges a thread that resumes after its verdict again, as a second generation, keeping the first', async () => {
    const { ws, relay, handle } = await thread();
    judged.length = 0;
    const worker = await testWorker(env, taskQueue, activities);
    const [first, second] = await worker.runUntil(async () => {
      await tell(ws, message('user'), message('assistant'));
      await relay.drain();
      const first = await handle.result();
      // Two hours later the customer writes again: the thread reopens and goes quiet again.
      await env.sleep(120 * MINUTE);
      await tell(ws, message('user'));
      await relay.drain();
      const second = await handle.result();
      return [first, second];
    });
    expect(first.latest['resolution@1']?.generation).toBe('thread:3');
    // The first verdict is seq 4 of the log; the message that reopened the thread seq 5.
    expect(second.latest['resolution@1']?.generation).toBe('thread:5');
    expect(judged.map((j) => j.messages.length)).toEqual([2, 3]);
    // Each generation's verdict is its own: the first stays, the second is the current one.
    expect((await verdicts(ws)).map((v) => v.value)).toEqual([
      { resolved: true, messages: 2 },
      { resolved: false, messages: 3 },
    ]);
    expect(await ledger(ws)).toEqual([
      ['thread:3', 'thread:t', 'recorded'],
      ['thread:5', 'thread:t', 'recorded'],
    ]);
  });

  it('judges a thread at once when its host ends it, and again once it reopens and goes quiet', async () => {
    const { ws, relay, handle } = await thread();
    judged.length = 0;
    const worker = await testWorker(env, taskQueue, activities);
    const { ended, reopened, quietAfterReopening } = await worker.runUntil(async () => {
      await tell(ws, message('user'), message('assistant'), { type: 'end_thread', thread_id: 't' });
      await relay.drain();
      const ended = await handle.result();
      expect(await quietBeforeJudged(handle)).toBeLessThan(MINUTE);
      expect(await timersFired(handle)).toBe(0);
      expect(await store.thread(ws, 't')).toMatchObject({ ended_at: expect.any(String) });
      // The customer writes again: the thread is open, and judged once quiet for 30 minutes.
      await tell(ws, message('user'));
      expect((await store.thread(ws, 't'))?.ended_at).toBeNull();
      await relay.drain();
      const reopened = await handle.result();
      return { ended, reopened, quietAfterReopening: await quietBeforeJudged(handle) };
    });
    expect(ended.latest['resolution@1']).toMatchObject({
      generation: 'thread:4',
      state: 'recorded',
    });
    expect(reopened.latest['resolution@1']).toMatchObject({ generation: 'thread:6' });
    expect(quietAfterReopening).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(judged.map((j) => [j.through, j.messages.length])).toEqual([
      [4, 2],
      [6, 3],
    ]);
    expect((await verdicts(ws)).map((v) => v.value)).toEqual([
      { resolved: true, messages: 2 },
      { resolved: false, messages: 3 },
    ]);
  });

  it('does not count a thread with a run open as quiet, however long the run takes', async () => {
    const { ws, relay, handle } = await thread();
    judged.length = 0;
    const worker = await testWorker(env, taskQueue, activities);
    await worker.runUntil(async () => {
      await tell(ws, { type: 'start_run', run_id: 'r1', thread_id: 't' }, message('user', 'r1'));
      await relay.drain();
      await env.sleep(3 * 60 * MINUTE);
      expect(await verdicts(ws)).toEqual([]);
      expect(await timersFired(handle)).toBe(0);
      await tell(ws, { type: 'end_run', run_id: 'r1', status: 'completed' });
      await relay.drain();
      await handle.result();
    });
    // Quiet from the run's end: 30 minutes after its signal.
    const quiet = await quietBeforeJudged(handle);
    expect(quiet).toBeGreaterThanOrEqual(30 * MINUTE);
    expect(quiet).toBeLessThan(31 * MINUTE);
    expect(judged).toHaveLength(1);
  });
});

// Last, so no later test skips time past the timers these threads leave waiting.
describe.each(backends)('many threads waiting at once, on %s', (_backend, open) => {
  let store: Store;
  let activities: ReturnType<typeof createActivities>;
  beforeAll(async () => {
    store = await open();
    activities = createActivities({
      store,
      evaluators: createEvaluatorRegistry([resolution]),
      feedbackTypes: storeOptions.feedbackTypes,
      scoreSink: new InMemoryScoreSink(),
      scoreReader: null,
    });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('keeps a thousand waiting threads cheap: a short history each, and memory that does not grow with them', async () => {
    const ws = `threads-many-${Date.now().toString(36)}`;
    const queue = uniqueTaskQueue('threads-many');
    const relay = new TriggerRelay({
      store,
      client: env.client,
      taskQueue: queue,
      workspaceId: ws,
      rules,
    });
    /** Threads `from`..`to`, each with one message, relayed; resolves once each waits on its timer. */
    const waiting = async (from: number, to: number) => {
      for (let i = from; i < to; i++) {
        for (const command of [
          { type: 'create_thread', thread_id: `t${i}` },
          { type: 'post_message', thread_id: `t${i}`, role: 'user', content: 'hello?' },
        ]) {
          await store.executeUnchecked({
            workspace_id: ws,
            actor: { kind: 'system', name: 'host' },
            command,
          });
        }
      }
      await relay.drain();
      const histories: number[] = [];
      for (let i = from; i < to; i++) {
        const handle = env.client.workflow.getHandle(
          evaluateThreadWorkflowId(store.id, ws, `t${i}`),
        );
        for (;;) {
          const events = (await handle.fetchHistory()).events ?? [];
          if (events.some((e) => e.timerStartedEventAttributes)) {
            histories.push(events.length);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      return histories;
    };
    const worker = await testWorker(env, queue, activities);
    const { histories, half, all, cached } = await worker.runUntil(async () => {
      const histories = await waiting(0, 500);
      const half = memoryMb();
      histories.push(...(await waiting(500, 1000)));
      return { histories, half, all: memoryMb(), cached: worker.getStatus().numCachedWorkflows };
    });
    console.log(
      `1000 threads waiting: longest history ${Math.max(...histories)} events; JS heap ` +
        `${half.heap.toFixed(0)} MB at 500, ${all.heap.toFixed(0)} MB at 1000 (RSS ` +
        `${half.rss.toFixed(0)} → ${all.rss.toFixed(0)} MB); ${cached} workflows cached`,
    );
    expect(histories).toHaveLength(1000);
    expect(Math.max(...histories)).toBeLessThan(50);
    // The worker keeps at most its cache of workflows in memory, whatever the number waiting:
    // 500 more waiting threads add less than 50 KB each.
    expect(cached).toBeLessThanOrEqual(MAX_CACHED_WORKFLOWS);
    expect(all.heap - half.heap).toBeLessThan(25);
    expect(await store.feedback(ws)).toEqual([]);
  });
});

// The collector, to measure what stays: V8 exposes it to a context made after the flag is set.
v8.setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function memoryMb() {
  collect();
  collect();
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20 };
}

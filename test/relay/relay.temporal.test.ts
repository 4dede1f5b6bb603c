import { setTimeout as sleep } from 'node:timers/promises';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerLengthEvaluator, turnOutcomeEvaluator } from '../../src/evaluators/index.js';
import type { InMemoryScoreSink } from '../../src/testing/index.js';
import type { evaluateRun } from '../../src/workflows/evaluate-run.js';
import { evaluateRunWorkflowId, type RunEvent } from '../../src/workflows/evaluate-run-messages.js';
import { mirrorWorkflowId } from '../../src/workflows/mirror-messages.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import {
  devServerEnvironment,
  recordHistory,
  testWorker,
  uniqueTaskQueue,
} from '../support/temporal.js';

let env: TestWorkflowEnvironment;
const engines: TestEngine[] = [];
const newEngine = () => {
  const engine = testEngine({ evaluators: [answerLengthEvaluator(), turnOutcomeEvaluator()] });
  engines.push(engine);
  return engine;
};
beforeAll(async () => {
  env = await devServerEnvironment();
});
afterAll(async () => {
  await Promise.all(engines.map((engine) => engine.close()));
  await env?.teardown();
});

const answer = (content: string, message_id = 'a1') => ({
  type: 'post_message',
  thread_id: 't',
  message_id,
  role: 'assistant',
  content,
  run_id: 'r',
});

describe('events the relay cannot deliver', () => {
  it("records each event of a terminated run's workflow with its reason, warns, and moves on", async () => {
    const engine = newEngine();
    const ws = 'terminated';
    const warnings: string[] = [];
    const relay = engine.relay(env.client, uniqueTaskQueue(), ws, {
      onWarning: (line) => warnings.push(line),
    });
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
    );
    await relay.drain();
    const workflowId = evaluateRunWorkflowId(engine.store.id, ws, 'r');
    await env.client.workflow.getHandle(workflowId).terminate('an operator stopped it');

    await given(engine.store, ws, answer('late'), {
      type: 'end_run',
      run_id: 'r',
      status: 'completed',
    });
    expect(await relay.drain()).toBe(2);

    const entries = await engine.store.ledger.undelivered(ws);
    expect(entries.map((e) => [e.seq, e.event_type, e.run_id, e.workflow_id])).toEqual([
      [3, 'message_posted', 'r', workflowId],
      [4, 'run_ended', 'r', workflowId],
    ]);
    expect(
      entries.every((e) => e.reason === `its workflow ${workflowId} is closed (terminated)`),
    ).toBe(true);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('event 3 (message_posted) of run r in workspace terminated');
    expect(warnings[1]).toContain('closed (terminated)');
    // Nothing can ever deliver them: the cursor moved past them, and nothing is left to relay.
    expect(await engine.store.cursor(ws, 'trigger-relay')).toBe(4);
    expect(await relay.drain()).toBe(0);
    expect(await engine.store.ledger.undelivered(ws)).toHaveLength(2);
  });

  it('records the events of a run resumed after its workflow completed, but not repeats', async () => {
    const engine = newEngine();
    const ws = 'abandoned';
    const taskQueue = uniqueTaskQueue();
    const warnings: string[] = [];
    const relay = engine.relay(env.client, taskQueue, ws, {
      abandonAfterMs: 200,
      onWarning: (line) => warnings.push(line),
    });
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      answer('hello'),
      { type: 'pause_run', run_id: 'r' },
    );
    const worker = await testWorker(env, taskQueue, engine.activities);
    const handle = env.client.workflow.getHandle<typeof evaluateRun>(
      evaluateRunWorkflowId(engine.store.id, ws, 'r'),
    );
    // Paused past abandonAfterMs, the run is evaluated as it stood and its workflow completes.
    const result = await worker.runUntil(async () => {
      await relay.drain();
      return handle.result();
    });
    expect(result).toMatchObject({ abandoned: true, lastSeq: 4 });

    // Its verdicts follow in the log; then the host resumes the run, posts and ends it.
    const resumed = [1, 2, 3];
    const head = await engine.store.head(ws);
    await given(
      engine.store,
      ws,
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      answer('back again', 'a2'),
      { type: 'end_run', run_id: 'r', status: 'completed' },
    );
    await relay.drain();
    const reason = `its workflow ${handle.workflowId} is closed (completed)`;
    const recorded = (await engine.store.ledger.undelivered(ws)).map((e) => [e.seq, e.reason]);
    expect(recorded).toEqual(resumed.map((n) => [head + n, reason]));
    expect(warnings).toHaveLength(3);

    // A relay sending the whole log again finds seqs 2-4 applied: repeats, not losses.
    const again: string[] = [];
    await engine
      .relay(env.client, taskQueue, ws, { cursor: 'replay', onWarning: (line) => again.push(line) })
      .drain();
    expect(again.map((line) => Number(line.match(/event (\d+)/)?.[1]))).toEqual(
      recorded.map(([seq]) => seq),
    );
    expect((await engine.store.ledger.undelivered(ws)).map((e) => [e.seq, e.reason])).toEqual(
      recorded,
    );
  });
});

describe("a run's events", () => {
  it('go to its workflow as one signal per page, in seq order, and the workflow applies each one', async () => {
    const engine = newEngine();
    const ws = 'one-signal';
    const taskQueue = uniqueTaskQueue();
    const relay = engine.relay(env.client, taskQueue, ws);
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      answer('one', 'a1'),
      answer('two', 'a2'),
      { type: 'pause_run', run_id: 'r' },
    );
    await relay.drain();
    await given(
      engine.store,
      ws,
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      { type: 'end_run', run_id: 'r', status: 'completed' },
    );
    await relay.drain();

    const handle = env.client.workflow.getHandle<typeof evaluateRun>(
      evaluateRunWorkflowId(engine.store.id, ws, 'r'),
    );
    const { events } = await handle.fetchHistory();
    const signals = (events ?? []).flatMap((event) => {
      const payloads = event.workflowExecutionSignaledEventAttributes?.input?.payloads;
      return payloads
        ? [payloads.map((p) => defaultPayloadConverter.fromPayload<RunEvent>(p))]
        : [];
    });
    expect(signals.map((signal) => signal.map((e) => [e.seq, e.type]))).toEqual([
      [
        [2, 'started'],
        [3, 'message'],
        [4, 'message'],
        [5, 'paused'],
      ],
      [
        [6, 'resumed'],
        [7, 'ended'],
      ],
    ]);
    const worker = await testWorker(env, taskQueue, engine.activities);
    const result = await worker.runUntil(() => handle.result());
    // Pinned for the replay test: a history whose signals carry several events each.
    await recordHistory(handle, 'evaluateRun.page-signals');
    expect(result).toMatchObject({
      status: 'completed',
      lastSeq: 7,
      pauses: 1,
      messages: ['a1', 'a2'],
    });
    expect(Object.values(result.evaluations).map((e) => e.state)).toEqual(
      Array(3).fill('recorded'),
    );
  });
});

describe('two stores on one Temporal namespace', () => {
  it('evaluate the same workspace and run id each in its own workflows, into its own sink', async () => {
    const ws = 'same-name';
    const stores = [
      { engine: newEngine(), taskQueue: uniqueTaskQueue(), content: 'one' },
      { engine: newEngine(), taskQueue: uniqueTaskQueue(), content: 'three words here' },
    ];
    const [first, second] = stores.map(({ engine }) => engine.store.id);
    expect(first).not.toBe(second);
    const workers = await Promise.all(
      stores.map(({ engine, taskQueue }) => testWorker(env, taskQueue, engine.activities)),
    );
    const results = await Promise.all(
      stores.map(async ({ engine, taskQueue, content }, i) => {
        await given(
          engine.store,
          ws,
          { type: 'create_thread', thread_id: 't' },
          { type: 'start_run', run_id: 'r', thread_id: 't' },
          answer(content),
          { type: 'end_run', run_id: 'r', status: 'completed' },
        );
        const relay = engine.relay(env.client, taskQueue, ws);
        return (workers[i] as (typeof workers)[number]).runUntil(async () => {
          await relay.drain();
          const result = await env.client.workflow
            .getHandle<typeof evaluateRun>(evaluateRunWorkflowId(engine.store.id, ws, 'r'))
            .result();
          await relay.drain(); // the verdicts, now in the log, go to this store's mirror
          const sink = engine.sink as InMemoryScoreSink;
          for (let i = 0; i < 200 && sink.scores().length < 4; i++) await sleep(50);
          return result;
        });
      }),
    );

    for (const [i, { engine, content }] of stores.entries()) {
      expect(Object.values(results[i]?.evaluations ?? {}).map((e) => e.state)).toEqual([
        'recorded',
        'recorded',
      ]);
      const characters = (engine.sink as InMemoryScoreSink)
        .scores()
        .filter((score) => score.name.endsWith('characters'))
        .map((score) => score.value);
      expect(characters).toEqual([content.length]);
      const mirror = await env.client.workflow
        .getHandle(mirrorWorkflowId(engine.store.id, ws))
        .describe();
      expect(mirror.taskQueue).toBe(stores[i]?.taskQueue);
    }
  });
});

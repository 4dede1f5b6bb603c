import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFeedbackType } from '../../src/core/index.js';
import {
  answerLengthEvaluator,
  artifactSchemaEvaluator,
  defineEvaluator,
  turnOutcomeEvaluator,
} from '../../src/evaluators/index.js';
import type { evaluateRun } from '../../src/workflows/evaluate-run.js';
import { evaluateRunWorkflowId, runStateQuery } from '../../src/workflows/evaluate-run-messages.js';
import { feedbackEvents, given, type TestEngine, testEngine } from '../support/engine.js';
import {
  expectWorkerLog,
  recordHistory,
  testWorker,
  timeSkippingEnvironment,
  uniqueTaskQueue,
} from '../support/temporal.js';

const DAY_MS = 24 * 60 * 60 * 1000;

// Fails the first two times it sees a target, then judges it: transient failures retry. The
// worker warns of each failed attempt; those warnings are expected, so kept, not printed.
const failedAttempts = expectWorkerLog(/Activity failed[\s\S]*transient failure \d/);
const attempts = new Map<string, number>();
const flakyFeedback = defineFeedbackType({
  name: 'flaky_check',
  targets: ['turn'],
  schema: z.object({ ok: z.boolean() }),
});
const flaky = defineEvaluator({
  name: 'flaky',
  version: '1',
  feedbackType: flakyFeedback,
  targets: ['turn'],
  source: 'HARNESS',
  evaluate(subject) {
    const key = subject.kind === 'turn' ? subject.run.run_id : '';
    const seen = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, seen);
    if (seen <= 2) throw new Error(`transient failure ${seen}`);
    return { ok: true };
  },
});

describe('evaluating runs on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let engine: TestEngine;
  beforeAll(async () => {
    env = await timeSkippingEnvironment();
    engine = testEngine({
      evaluators: [
        answerLengthEvaluator(),
        turnOutcomeEvaluator(),
        flaky,
        artifactSchemaEvaluator({ schemas: { report: z.object({ title: z.string() }) } }),
      ],
    });
  });
  afterAll(async () => {
    await engine?.close();
    await env?.teardown();
  });

  /** A thread with a run that posted two answers, relayed to Temporal. */
  async function startRun(ws: string, taskQueue: string) {
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      {
        type: 'post_message',
        thread_id: 't',
        message_id: 'q',
        role: 'user',
        content: 'hi',
        run_id: 'r',
      },
      {
        type: 'post_message',
        thread_id: 't',
        message_id: 'a1',
        role: 'assistant',
        content: 'hello',
        run_id: 'r',
      },
      {
        type: 'post_message',
        thread_id: 't',
        message_id: 'a2',
        role: 'assistant',
        content: 'bye',
        run_id: 'r',
      },
      {
        type: 'put_artifact',
        artifact_id: 'doc',
        kind: 'report',
        data: { title: 'x' },
        run_id: 'r',
      },
    );
    const relay = engine.relay(env.client, taskQueue, ws);
    await relay.drain();
    const handle: WorkflowHandle<typeof evaluateRun> = env.client.workflow.getHandle(
      evaluateRunWorkflowId(engine.store.id, ws, 'r'),
    );
    return { relay, handle };
  }

  it('evaluates a run paused for 7 days once it ends: turn, messages, every pinned evaluator', async () => {
    const ws = 'paused-week';
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue, engine.activities);
    const result = await worker.runUntil(async () => {
      const { relay, handle } = await startRun(ws, taskQueue);
      await given(engine.store, ws, {
        type: 'pause_run',
        run_id: 'r',
        reason: 'waiting for approval',
      });
      await relay.drain();
      expect((await handle.query(runStateQuery)).status).toBe('paused');
      await env.sleep(7 * DAY_MS);
      await given(engine.store, ws, { type: 'start_run', run_id: 'r', thread_id: 't' });
      await given(engine.store, ws, { type: 'end_run', run_id: 'r', status: 'completed' });
      await relay.drain();
      const ended = await handle.result();
      await recordHistory(handle, 'evaluateRun');
      return ended;
    });

    expect(result).toMatchObject({ status: 'completed', pauses: 1, abandoned: false });
    expect(result.pausedMs).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(result.messages).toEqual(['a1', 'a2']);
    expect(result.artifacts).toEqual([{ artifact_id: 'doc', version: 1 }]);
    const states = Object.values(result.evaluations).map((e) => e.state);
    expect(states).toEqual(Array(5).fill('recorded'));

    const feedback = await feedbackEvents(engine.store, ws);
    const byParticipant = feedback.map((e) =>
      e.actor.kind === 'evaluator'
        ? `${e.actor.name}@${e.actor.version} ${JSON.stringify(e.event.type === 'feedback_given' && e.event.target)}`
        : '',
    );
    expect(byParticipant.sort()).toEqual(
      [
        'answer_length@1 {"kind":"message","message_id":"a1","thread_id":"t","run_id":"r"}',
        'answer_length@1 {"kind":"message","message_id":"a2","thread_id":"t","run_id":"r"}',
        'artifact_schema@1 {"kind":"artifact","artifact_id":"doc","version":1}',
        'flaky@1 {"kind":"turn","run_id":"r"}',
        'turn_outcome@1 {"kind":"turn","run_id":"r"}',
      ].sort(),
    );
    const ledger = await engine.store.ledger.evaluations(ws);
    expect(ledger.map((e) => e.state)).toEqual(Array(5).fill('recorded'));
  });

  it('evaluates a run paused for 31 days as it stands and marks it abandoned', async () => {
    const ws = 'paused-month';
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue, engine.activities);
    const result = await worker.runUntil(async () => {
      const { relay, handle } = await startRun(ws, taskQueue);
      await given(engine.store, ws, { type: 'pause_run', run_id: 'r' });
      await relay.drain();
      // Awaiting the result lets the server skip time: past the 30-day abandonment timer.
      return handle.result();
    });
    expect(result).toMatchObject({ status: 'paused', abandoned: true, endedAt: null });
    expect(result.pausedMs).toBeGreaterThanOrEqual(30 * DAY_MS);
    const outcome = (await feedbackEvents(engine.store, ws)).find(
      (e) => e.event.type === 'feedback_given' && e.event.feedback_type === 'turn_outcome',
    );
    expect(outcome?.event).toMatchObject({ value: { completed: false, assistant_messages: 2 } });
  });

  it('records one feedback event for an evaluator that failed twice, then succeeded', async () => {
    const ws = 'flaky';
    attempts.clear();
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue, engine.activities);
    await worker.runUntil(async () => {
      const { relay, handle } = await startRun(ws, taskQueue);
      await given(engine.store, ws, { type: 'end_run', run_id: 'r', status: 'completed' });
      await relay.drain();
      return handle.result();
    });
    const flakyEvents = (await feedbackEvents(engine.store, ws)).filter(
      (e) => e.actor.kind === 'evaluator' && e.actor.name === 'flaky',
    );
    expect(flakyEvents).toHaveLength(1);
    expect(attempts.get('r')).toBe(3);
    const warned = failedAttempts.filter((e) => String(e.meta?.workflowId).includes(`:${ws}:`));
    expect(warned).toHaveLength(2);
  });

  it('in online mode judges each answer as it is posted, and not again when the run ends', async () => {
    const ws = 'online';
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue, engine.activities);
    const result = await worker.runUntil(async () => {
      await given(
        engine.store,
        ws,
        { type: 'create_thread', thread_id: 't' },
        { type: 'start_run', run_id: 'r', thread_id: 't' },
        {
          type: 'post_message',
          thread_id: 't',
          message_id: 'a1',
          role: 'assistant',
          content: 'hi',
          run_id: 'r',
        },
      );
      const relay = engine.relay(env.client, taskQueue, ws, { online: true });
      await relay.drain();
      const handle = env.client.workflow.getHandle<typeof evaluateRun>(
        evaluateRunWorkflowId(engine.store.id, ws, 'r'),
      );
      // The run is still going, and its answer is already judged.
      for (let i = 0; i < 100; i++) {
        const { evaluations } = await handle.query(runStateQuery);
        if (Object.values(evaluations).some((e) => e.state === 'recorded')) break;
        await env.sleep(1000);
      }
      expect((await handle.query(runStateQuery)).status).toBe('running');
      expect(await engine.store.feedback(ws, { feedback_type: 'answer_length' })).toHaveLength(1);
      await given(engine.store, ws, { type: 'end_run', run_id: 'r', status: 'completed' });
      await relay.drain();
      return handle.result();
    });
    expect(Object.values(result.evaluations).map((e) => e.state)).toEqual(
      Array(3).fill('recorded'),
    );
    expect(await engine.store.feedback(ws, { feedback_type: 'answer_length' })).toHaveLength(1);
  });
});

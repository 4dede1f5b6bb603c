import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFeedbackType } from '../../src/core/index.js';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import { TriggerRelay } from '../../src/relay/relay.js';
import {
  evaluateThreadWorkflowId,
  type ThreadEvent,
} from '../../src/workflows/evaluate-thread-messages.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { devServerEnvironment, uniqueTaskQueue } from '../support/temporal.js';

// What the relay tells a thread's workflow, on the dev server with no worker: the signals stay in
// the workflow's history, to be read back as sent.

const resolution = defineEvaluator({
  name: 'resolution',
  version: '1',
  feedbackType: defineFeedbackType({
    name: 'resolution',
    targets: ['thread'],
    schema: z.object({ resolved: z.boolean() }),
  }),
  targets: ['thread'],
  source: 'JUDGE',
  evaluate: () => ({ resolved: true }),
});

let env: TestWorkflowEnvironment;
const engines: TestEngine[] = [];
const newEngine = (...evaluators: Parameters<typeof testEngine>[0]['evaluators']) => {
  const engine = testEngine({ evaluators });
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

const message = (message_id: string, run_id: string | null = null) => ({
  type: 'post_message',
  thread_id: 't',
  message_id,
  role: 'user',
  content: 'hello',
  run_id,
});

/** The thread events a workflow's history holds, in order. */
async function threadSignals(workflowId: string): Promise<ThreadEvent[]> {
  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const signaled = event.workflowExecutionSignaledEventAttributes;
    if (signaled?.signalName !== 'threadEvent') return [];
    const [payload] = signaled.input?.payloads ?? [];
    return [defaultPayloadConverter.fromPayload<ThreadEvent>(payload ?? {})];
  });
}

describe("the relay and a thread's workflow", () => {
  it('starts no thread workflow while no rule targets threads: an app without them pays nothing', async () => {
    const engine = newEngine(answerLengthEvaluator());
    const ws = 'no-thread-rules';
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      message('m1', 'r'),
      { type: 'end_run', run_id: 'r', status: 'completed' },
      { type: 'end_thread', thread_id: 't' },
    );
    expect(await engine.relay(env.client, uniqueTaskQueue(), ws).drain()).toBe(5);
    const handle = env.client.workflow.getHandle(
      evaluateThreadWorkflowId(engine.store.id, ws, 't'),
    );
    await expect(handle.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('signals every thread event in order, each activity with the thread evaluators live at its seq', async () => {
    const engine = newEngine(resolution);
    const ws = 'thread-signals';
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      message('m1', 'r'),
      { type: 'pause_run', run_id: 'r' },
      // A rule changed now pins its settings to the generations opened after it.
      {
        type: 'set_evaluation_rule',
        evaluator: 'resolution@1',
        targets: ['thread'],
        sample_rate: 0.5,
        idle_for: '2h',
      },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
      { type: 'end_run', run_id: 'r', status: 'completed' },
      { type: 'end_thread', thread_id: 't' },
    );
    await engine.relay(env.client, uniqueTaskQueue(), ws).drain();
    const pinned = { name: 'resolution', version: '1', idleForMs: 30 * 60_000 };
    const changed = { name: 'resolution', version: '1', sampleRate: 0.5, idleForMs: 2 * 3_600_000 };
    expect(await threadSignals(evaluateThreadWorkflowId(engine.store.id, ws, 't'))).toEqual([
      { seq: 2, type: 'run_started', run_id: 'r', plan: [pinned] },
      { seq: 3, type: 'message', plan: [pinned] },
      { seq: 4, type: 'run_paused', run_id: 'r' },
      { seq: 6, type: 'run_started', run_id: 'r', plan: [changed] },
      { seq: 7, type: 'run_ended', run_id: 'r' },
      { seq: 8, type: 'ended' },
    ]);
  });

  it("does not start a thread's workflow again for an end or a run's end: only activity does", async () => {
    const engine = newEngine(resolution);
    const ws = 'thread-closed';
    const relay = engine.relay(env.client, uniqueTaskQueue(), ws);
    await given(
      engine.store,
      ws,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
    );
    await relay.drain();
    const workflowId = evaluateThreadWorkflowId(engine.store.id, ws, 't');
    const handle = env.client.workflow.getHandle(workflowId);
    const first = (await handle.describe()).runId;
    await handle.terminate('closed, as one that judged all it had closes');
    await given(
      engine.store,
      ws,
      { type: 'end_run', run_id: 'r', status: 'completed' },
      { type: 'end_thread', thread_id: 't' },
    );
    await relay.drain();
    // Nothing waits for them, and nothing is recorded as undelivered: they are no loss.
    expect((await handle.describe()).runId).toBe(first);
    expect(await engine.store.ledger.undelivered(ws)).toEqual([]);
    await given(engine.store, ws, message('m2'));
    await relay.drain();
    const again = await handle.describe();
    expect(again.runId).not.toBe(first);
    expect(again.status.name).toBe('RUNNING');
    expect(await threadSignals(workflowId)).toEqual([
      {
        seq: 5,
        type: 'message',
        plan: [{ name: 'resolution', version: '1', idleForMs: 1_800_000 }],
      },
    ]);
  });

  it('still tells an open generation of activity after its rule is disabled, so it waits for quiet', async () => {
    const engine = newEngine(resolution);
    const ws = 'thread-disabled';
    const relay = new TriggerRelay({
      store: engine.store,
      client: env.client,
      taskQueue: uniqueTaskQueue(),
      workspaceId: ws,
      rules: [
        {
          evaluator: 'resolution@1',
          targets: ['thread'],
          sample_rate: 1,
          filter: {},
          enabled: true,
        },
      ],
    });
    await given(engine.store, ws, { type: 'create_thread', thread_id: 't' }, message('m1'), {
      type: 'set_evaluation_rule',
      evaluator: 'resolution@1',
      targets: ['thread'],
      enabled: false,
    });
    await given(engine.store, ws, message('m2'));
    await relay.drain();
    const signals = await threadSignals(evaluateThreadWorkflowId(engine.store.id, ws, 't'));
    expect(signals.map((s) => [s.seq, s.type, 'plan' in s ? s.plan.length : null])).toEqual([
      [2, 'message', 1],
      [4, 'message', 0],
    ]);
  });
});

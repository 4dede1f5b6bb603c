import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import type { evaluateRun } from '../../src/workflows/evaluate-run.js';
import {
  type EvaluateRunInput,
  evaluateRunWorkflowId,
  type RunEvent,
  type RunEvents,
  runEventSignal,
} from '../../src/workflows/evaluate-run-messages.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { historyChain } from '../support/history-chain.js';
import {
  devServerEnvironment,
  recordHistory,
  testWorker,
  uniqueTaskQueue,
} from '../support/temporal.js';

// A long run's history stays small: each evaluation is one activity, and past its history
// budget the workflow continues as new between batches of evaluations.

const MESSAGES = 50;
const judges = ['clarity', 'brevity', 'accuracy'].map((name) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: answerLengthEvaluator().feedbackType,
    targets: ['message'],
    source: 'HARNESS',
    evaluate: (subject) => ({
      characters: subject.kind === 'message' ? subject.message.content.length : 0,
      within_limit: true,
    }),
  }),
);

let env: TestWorkflowEnvironment;
let engine: TestEngine;
beforeAll(async () => {
  env = await devServerEnvironment();
  engine = testEngine({ evaluators: judges });
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
});

/** A run of 50 assistant messages, ended, evaluated; each execution's history length. */
async function longRun(ws: string, options: Pick<EvaluateRunInput, 'historyBudget'> = {}) {
  const taskQueue = uniqueTaskQueue();
  const messages = Array.from({ length: MESSAGES }, (_, i) => `m${i}`);
  await given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    ...messages.map((message_id) => ({
      type: 'post_message',
      thread_id: 't',
      message_id,
      role: 'assistant',
      content: `answer ${message_id}`,
      run_id: 'r',
    })),
  );
  const events: RunEvent[] = [
    { seq: 1, type: 'started' },
    ...messages.map((message_id, i) => ({
      seq: i + 2,
      type: 'message' as const,
      message_id,
      role: 'assistant' as const,
    })),
    { seq: MESSAGES + 2, type: 'ended', status: 'completed' },
  ];
  const worker = await testWorker(env, taskQueue, engine.activities);
  return worker.runUntil(async () => {
    const [first, ...rest] = events as [RunEvent, ...RunEvent[]];
    const workflowId = evaluateRunWorkflowId(engine.store.id, ws, 'r');
    const handle = await env.client.workflow.signalWithStart<typeof evaluateRun, RunEvents>(
      'evaluateRun',
      {
        workflowId,
        taskQueue,
        args: [{ workspaceId: ws, runId: 'r', threadId: 't', plan: engine.plan(), ...options }],
        signal: runEventSignal,
        signalArgs: [first],
      },
    );
    for (const event of rest) await handle.signal(runEventSignal, event);
    const result = await handle.result();
    // The first execution: one-activity evaluations, the history budget, continue-as-new.
    if (options.historyBudget !== undefined) {
      const first = env.client.workflow.getHandle(workflowId, handle.signaledRunId);
      await recordHistory(first, 'evaluateRun.history-budget');
    }
    return {
      result,
      histories: await historyChain(env.client, workflowId, handle.signaledRunId),
    };
  });
}

describe('a run of 50 assistant messages and 3 evaluators', () => {
  it('is evaluated whole in under 2,000 history events', async () => {
    const { result, histories } = await longRun('long');
    const states = Object.values(result.evaluations).map((e) => e.state);
    expect(states).toHaveLength(MESSAGES * judges.length);
    expect(states.every((state) => state === 'recorded')).toBe(true);
    expect(Math.max(...histories)).toBeLessThan(2_000);
  });

  it('continues as new past its history budget and still settles every evaluation once', async () => {
    const { result, histories } = await longRun('budget', { historyBudget: 200 });
    expect(histories.length).toBeGreaterThan(1);
    // A batch of evaluations (4 × 8) may run past the budget before the workflow rolls over.
    expect(Math.max(...histories)).toBeLessThan(200 + 32 * 6);
    const states = Object.values(result.evaluations).map((e) => e.state);
    expect(states).toHaveLength(MESSAGES * judges.length);
    expect(states.every((state) => state === 'recorded')).toBe(true);
    const feedback = (await engine.store.events({ workspace_id: 'budget', limit: 10_000 })).filter(
      (e) => e.event.type === 'feedback_given',
    );
    expect(feedback).toHaveLength(MESSAGES * judges.length);
  });
});

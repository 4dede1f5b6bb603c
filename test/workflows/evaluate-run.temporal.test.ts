import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateRun } from '../../src/workflows/evaluate-run.js';
import {
  evaluateRunWorkflowId,
  runEventSignal,
  runStateQuery,
} from '../../src/workflows/evaluate-run-messages.js';
import {
  devServerEnvironment,
  expectWorkerLog,
  testWorker,
  timeSkippingEnvironment,
  uniqueTaskQueue,
} from '../support/temporal.js';

// These workflows plan no evaluator, so their workers have no activities, which the SDK warns of.
expectWorkerLog(/^No activities registered/);

const DAY_MS = 24 * 60 * 60 * 1000;
// These workflows run without a store; any id scopes theirs.
const storeId = 'no-store';
const noEvaluators = { turn: [], message: [], artifact: [] };
const input = (runId: string) => ({
  workspaceId: 'ws',
  runId,
  threadId: 'thread-1',
  plan: noEvaluators,
});

describe('evaluateRun on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await timeSkippingEnvironment();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('a run paused for 7 days, resumed and ended completes in seconds of wall time', async () => {
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue);
    const wallStart = Date.now();
    const result = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(evaluateRun, {
        workflowId: evaluateRunWorkflowId(storeId, 'ws', 'paused-a-week'),
        taskQueue,
        args: [input('paused-a-week')],
      });
      await handle.signal(runEventSignal, { seq: 1, type: 'paused' });
      // The query returns once the pause is applied, so the skipped week starts after it.
      expect((await handle.query(runStateQuery)).status).toBe('paused');
      await env.sleep(7 * DAY_MS);
      expect((await handle.query(runStateQuery)).status).toBe('paused');
      await handle.signal(runEventSignal, { seq: 2, type: 'resumed' });
      await handle.signal(runEventSignal, { seq: 3, type: 'ended', status: 'completed' });
      return handle.result();
    });
    const wallMs = Date.now() - wallStart;

    expect(result.status).toBe('completed');
    expect(result.pauses).toBe(1);
    expect(result.pausedMs).toBeGreaterThanOrEqual(7 * DAY_MS);
    const workflowMs = Date.parse(result.endedAt ?? '') - Date.parse(result.startedAt);
    expect(workflowMs).toBeGreaterThanOrEqual(7 * DAY_MS);
    expect(wallMs).toBeLessThan(30_000);
  });

  it('a repeated or stale seq changes nothing', async () => {
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue);
    const result = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(evaluateRun, {
        workflowId: evaluateRunWorkflowId(storeId, 'ws', 'repeats'),
        taskQueue,
        args: [input('repeats')],
      });
      await handle.signal(runEventSignal, { seq: 5, type: 'paused' });
      await handle.signal(runEventSignal, { seq: 5, type: 'paused' });
      await handle.signal(runEventSignal, { seq: 4, type: 'resumed' });
      expect(await handle.query(runStateQuery)).toMatchObject({
        status: 'paused',
        pauses: 1,
        lastSeq: 5,
      });
      await handle.signal(runEventSignal, { seq: 6, type: 'ended', status: 'stopped' });
      return handle.result();
    });
    expect(result).toMatchObject({ status: 'stopped', pauses: 1, lastSeq: 6 });
  });

  it('applies events in seq order even when all arrive before its first workflow task', async () => {
    const taskQueue = uniqueTaskQueue();
    // No worker yet: the start and every signal wait in history for the first task together.
    const handle = await env.client.workflow.start(evaluateRun, {
      workflowId: evaluateRunWorkflowId(storeId, 'ws', 'buffered'),
      taskQueue,
      args: [input('buffered')],
    });
    await handle.signal(runEventSignal, { seq: 1, type: 'started' });
    await handle.signal(runEventSignal, {
      seq: 2,
      type: 'message',
      message_id: 'a1',
      role: 'assistant',
    });
    await handle.signal(runEventSignal, { seq: 3, type: 'paused' });
    await handle.signal(runEventSignal, { seq: 4, type: 'resumed' });
    await handle.signal(runEventSignal, { seq: 5, type: 'ended', status: 'completed' });
    const worker = await testWorker(env, taskQueue);
    const result = await worker.runUntil(handle.result());
    expect(result).toMatchObject({ messages: ['a1'], pauses: 1, status: 'completed', lastSeq: 5 });
  });
});

describe('evaluateRun on the dev server', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await devServerEnvironment();
  });
  afterAll(async () => {
    await env?.teardown();
  });

  it('two signalWithStart calls for the same run id start one workflow', async () => {
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue);
    const workflowId = evaluateRunWorkflowId(storeId, 'ws', 'started-twice');
    await worker.runUntil(async () => {
      const start = (seq: number) =>
        env.client.workflow.signalWithStart(evaluateRun, {
          workflowId,
          taskQueue,
          args: [input('started-twice')],
          signal: runEventSignal,
          signalArgs: [{ seq, type: 'paused' }],
        });
      const first = await start(1);
      const second = await start(2);
      expect(second.signaledRunId).toBe(first.signaledRunId);

      await first.signal(runEventSignal, { seq: 3, type: 'ended', status: 'completed' });
      expect(await first.result()).toMatchObject({ status: 'completed', pauses: 1, lastSeq: 3 });
    });
    const executions = [];
    for await (const execution of env.client.workflow.list({
      query: `WorkflowId = '${workflowId}'`,
    })) {
      executions.push(execution);
    }
    expect(executions).toHaveLength(1);
  });
});

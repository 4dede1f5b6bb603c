import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateRun } from '../../src/workflows/evaluate-run.js';
import {
  evaluateRunWorkflowId,
  runEndedSignal,
  runPausedSignal,
  runResumedSignal,
  runStateQuery,
} from '../../src/workflows/evaluate-run-messages.js';
import {
  devServerEnvironment,
  testWorker,
  timeSkippingEnvironment,
  uniqueTaskQueue,
} from '../support/temporal.js';

const DAY_MS = 24 * 60 * 60 * 1000;
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
        workflowId: evaluateRunWorkflowId('ws', 'paused-a-week'),
        taskQueue,
        args: [input('paused-a-week')],
      });
      await handle.signal(runPausedSignal, { seq: 1 });
      // The query returns once the pause is applied, so the skipped week starts after it.
      expect((await handle.query(runStateQuery)).status).toBe('paused');
      await env.sleep(7 * DAY_MS);
      expect((await handle.query(runStateQuery)).status).toBe('paused');
      await handle.signal(runResumedSignal, { seq: 2 });
      await handle.signal(runEndedSignal, { seq: 3, status: 'completed' });
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
        workflowId: evaluateRunWorkflowId('ws', 'repeats'),
        taskQueue,
        args: [input('repeats')],
      });
      await handle.signal(runPausedSignal, { seq: 5 });
      await handle.signal(runPausedSignal, { seq: 5 });
      await handle.signal(runResumedSignal, { seq: 4 });
      expect(await handle.query(runStateQuery)).toMatchObject({
        status: 'paused',
        pauses: 1,
        lastSeq: 5,
      });
      await handle.signal(runEndedSignal, { seq: 6, status: 'stopped' });
      return handle.result();
    });
    expect(result).toMatchObject({ status: 'stopped', pauses: 1, lastSeq: 6 });
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
    const workflowId = evaluateRunWorkflowId('ws', 'started-twice');
    await worker.runUntil(async () => {
      const start = (seq: number) =>
        env.client.workflow.signalWithStart(evaluateRun, {
          workflowId,
          taskQueue,
          args: [input('started-twice')],
          signal: runPausedSignal,
          signalArgs: [{ seq }],
        });
      const first = await start(1);
      const second = await start(2);
      expect(second.signaledRunId).toBe(first.signaledRunId);

      await first.signal(runEndedSignal, { seq: 3, status: 'completed' });
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

import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFeedbackType, nanosOf } from '../../src/core/index.js';
import {
  answerLengthEvaluator,
  defineEvaluator,
  turnOutcomeEvaluator,
} from '../../src/evaluators/index.js';
import { ReevaluationClient } from '../../src/workflow-clients/index.js';
import type { ReevaluateProgress } from '../../src/workflows/reevaluate-messages.js';
import { reevaluateWorkflowId } from '../../src/workflows/reevaluate-messages.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import {
  devServerEnvironment,
  expectWorkerLog,
  recordHistory,
  testWorker,
  uniqueTaskQueue,
} from '../support/temporal.js';

// Backfills on the dev server: runs (turns) and messages judged by keyset pages across
// continue-as-new, "not yet judged" leaving out what a version recorded, and a batch paused by
// its budget that resumes when the budget is raised.

/**
 * Resolves once the workflow has handled its latest signal `name`: a workflow task started after
 * the signal came (so it was given the signal) has completed.
 */
async function signalHandled(handle: WorkflowHandle, name: string): Promise<void> {
  const handled = async () => {
    const events = (await handle.fetchHistory()).events ?? [];
    const signalled = events.findLastIndex(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === name,
    );
    if (signalled < 0) return false;
    const started = events.findIndex(
      (e, i) => i > signalled && e.workflowTaskStartedEventAttributes,
    );
    return (
      started > 0 && events.some((e, i) => i > started && e.workflowTaskCompletedEventAttributes)
    );
  };
  while (!(await handled())) await sleep(50);
}

/** A turn judge that reports a cent of usage per evaluation, as an LLM judge would its bill. */
const priced = defineEvaluator({
  name: 'priced_outcome',
  version: '1',
  feedbackType: turnOutcomeEvaluator().feedbackType,
  targets: ['turn'],
  source: 'JUDGE',
  async evaluate(subject, context) {
    await context.reportUsage({ model: 'judge', inputTokens: 10, outputTokens: 2, costUsd: 0.01 });
    return { completed: subject.kind === 'turn', assistant_messages: 0 };
  },
});

/** A judge of whole threads: how many runs it had. */
const threadLength = defineFeedbackType({
  name: 'thread_length',
  targets: ['thread'],
  schema: z.object({ runs: z.int() }),
});
const threadJudge = defineEvaluator({
  name: 'thread_length',
  version: '1',
  feedbackType: threadLength,
  targets: ['thread'],
  source: 'HARNESS',
  evaluate: (subject) => ({ runs: subject.kind === 'thread' ? subject.runs.length : -1 }),
});

let env: TestWorkflowEnvironment;
let engine: TestEngine;
beforeAll(async () => {
  env = await devServerEnvironment();
  engine = testEngine({
    evaluators: [turnOutcomeEvaluator(), answerLengthEvaluator(), priced, threadJudge],
    feedbackTypes: [threadLength],
  });
});
afterAll(async () => {
  await engine?.close();
  await env?.teardown();
});

/** Threads t0..t{threads-1}, each with `runs` ended runs of one assistant message each. */
async function history(ws: string, threads: number, runs: number) {
  const commands: object[] = [];
  for (let t = 0; t < threads; t++) {
    commands.push({ type: 'create_thread', thread_id: `t${t}` });
    for (let r = 0; r < runs; r++) {
      const run_id = `t${t}-r${r}`;
      commands.push(
        { type: 'start_run', run_id, thread_id: `t${t}` },
        {
          type: 'post_message',
          thread_id: `t${t}`,
          message_id: `m-${run_id}`,
          role: 'assistant',
          content: 'done',
          run_id,
        },
        { type: 'end_run', run_id, status: r === 0 ? 'failed' : 'completed' },
      );
    }
  }
  await given(engine.store, ws, ...commands);
}

describe('backfills on the dev server', () => {
  it('judges runs and messages a page at a time, and again only what is unjudged', async () => {
    const ws = 'backfill';
    const taskQueue = uniqueTaskQueue();
    await history(ws, 3, 4);
    const batches = new ReevaluationClient(env.client, engine.store, taskQueue, engine.evaluators);
    const worker = await testWorker(env, taskQueue, engine.activities);
    await worker.runUntil(async () => {
      // 12 turns in pages of 5: three runs of the workflow.
      await batches.start(ws, {
        batchId: 'turns',
        selection: { kind: 'turn' },
        evaluators: ['turn_outcome@1'],
        pageSize: 5,
      });
      const turns = await batches.watch(ws, 'turns', () => {}, 100);
      expect(turns).toMatchObject({ total: 12, done: 12, recorded: 12, failed: 0 });

      await batches.start(ws, {
        batchId: 'messages',
        selection: { kind: 'message', threadIds: ['t1', 't2'], statuses: ['completed'] },
        evaluators: ['answer_length@1'],
      });
      expect(await batches.watch(ws, 'messages', () => {}, 100)).toMatchObject({
        total: 6,
        done: 6,
        recorded: 6,
      });
      await batches.start(ws, {
        batchId: 'threads',
        selection: { kind: 'thread', statuses: ['failed'], threadIds: ['t0', 't2'] },
        evaluators: ['thread_length@1'],
      });
      expect(await batches.watch(ws, 'threads', () => {}, 100)).toMatchObject({
        total: 2,
        recorded: 2,
      });
      const threads = await engine.store.feedback(ws, { feedback_type: 'thread_length' });
      expect(threads.map((f) => [f.target, f.value.runs])).toEqual([
        [{ kind: 'thread', thread_id: 't0' }, 4],
        [{ kind: 'thread', thread_id: 't2' }, 4],
      ]);

      const judged = await engine.store.ledger.evaluations(ws, { generation: 'messages' });
      expect(judged.map((entry) => entry.target_key).sort()).toEqual(
        ['t1', 't2'].flatMap((t) => [1, 2, 3].map((r) => `message:${t}/m-${t}-r${r}`)),
      );

      // Two more turns; "unjudged" judges only them, limited and sampled alike on every read.
      await given(
        engine.store,
        ws,
        { type: 'start_run', run_id: 'late-1', thread_id: 't0' },
        { type: 'end_run', run_id: 'late-1', status: 'completed' },
        { type: 'start_run', run_id: 'late-2', thread_id: 't0' },
        { type: 'end_run', run_id: 'late-2', status: 'completed' },
      );
      await batches.start(ws, {
        batchId: 'late',
        selection: { kind: 'turn', unjudgedOnly: true },
        evaluators: ['turn_outcome@1'],
      });
      const late = await batches.watch(ws, 'late', () => {}, 100);
      await recordHistory(
        env.client.workflow.getHandle(reevaluateWorkflowId(engine.store.id, ws, 'late')),
        'reevaluate.backfill',
      );
      expect(late).toMatchObject({ total: 2, done: 2, recorded: 2 });
      const lateKeys = (await engine.store.ledger.evaluations(ws, { generation: 'late' })).map(
        (entry) => entry.target_key,
      );
      expect(lateKeys.sort()).toEqual(['turn:late-1', 'turn:late-2']);
      await batches.start(ws, {
        batchId: 'limited',
        selection: { kind: 'turn', limit: 7 },
        evaluators: ['turn_outcome@1'],
        pageSize: 3,
      });
      expect(await batches.watch(ws, 'limited', () => {}, 100)).toMatchObject({
        total: 7,
        done: 7,
      });
    });
  });

  it('pauses a batch when its spend reaches its budget, and resumes it when raised', async () => {
    const ws = 'budgeted';
    const taskQueue = uniqueTaskQueue();
    await history(ws, 2, 3);
    // What the operator reads in the worker's log (issue 34, item 6).
    const told = expectWorkerLog(/^batch (started|paused|finished)/);
    const batches = new ReevaluationClient(env.client, engine.store, taskQueue, engine.evaluators);
    const worker = await testWorker(env, taskQueue, engine.activities);
    await worker.runUntil(async () => {
      await batches.start(ws, {
        batchId: 'capped',
        selection: { kind: 'turn' },
        evaluators: ['priced_outcome@1'],
        concurrency: 1,
        maxCostUsd: 0.025,
      });
      const progress = async () => (await batches.progress(ws, 'capped')) as ReevaluateProgress;
      let seen = await progress();
      while (!(seen.paused && seen.inFlight === 0)) {
        await sleep(50);
        seen = await progress();
      }
      // One evaluation at a time: the third takes the spend from 2 to 3 cents, over 2.5. Paused
      // with none in flight, it starts no other until a signal lifts the pause.
      expect(seen).toMatchObject({
        total: 6,
        done: 3,
        paused: true,
        pausedBy: 'budget',
        spentNanos: nanosOf(0.03),
        maxCostNanos: nanosOf(0.025),
      });
      // Asking it to resume does not lift a budget's pause.
      await batches.resume(ws, 'capped');
      await signalHandled(
        env.client.workflow.getHandle(reevaluateWorkflowId(engine.store.id, ws, 'capped')),
        'resumeBatch',
      );
      expect(await progress()).toMatchObject({ done: 3, paused: true, pausedBy: 'budget' });

      await batches.setBudget(ws, 'capped', 1);
      const done = await batches.watch(ws, 'capped', () => {}, 100);
      await recordHistory(
        env.client.workflow.getHandle(reevaluateWorkflowId(engine.store.id, ws, 'capped')),
        'reevaluate.budget',
      );
      expect(done).toMatchObject({
        total: 6,
        done: 6,
        recorded: 6,
        paused: false,
        pausedBy: null,
        spentNanos: nanosOf(0.06),
        maxCostNanos: nanosOf(1),
      });
    });
    const [spend] = await engine.store.usage.spend({ workspace_id: ws, generation: 'capped' }, []);
    expect(spend?.cost_nanos).toBe(nanosOf(0.06));
    const ids = { workspace: ws, batch: 'capped', kind: 'backfill of turns' };
    const workflowId = reevaluateWorkflowId(engine.store.id, ws, 'capped');
    expect(told.map(({ level, message, meta }) => ({ level, message, meta }))).toEqual([
      {
        level: 'INFO',
        message: 'batch started',
        meta: expect.objectContaining({
          event: 'batch.started',
          ...ids,
          evaluators: 'priced_outcome@1',
          total: 6,
          workflowId,
        }),
      },
      {
        level: 'INFO',
        message: 'batch paused by its budget',
        meta: expect.objectContaining({
          event: 'batch.paused',
          ...ids,
          done: 3,
          spentNanos: nanosOf(0.03),
          maxCostNanos: nanosOf(0.025),
        }),
      },
      {
        level: 'INFO',
        message: 'batch finished',
        meta: expect.objectContaining({ event: 'batch.finished', ...ids, done: 6, recorded: 6 }),
      },
    ]);
  });
});

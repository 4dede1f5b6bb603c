import type { Client } from '@temporalio/client';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateInput, EvaluateResult } from '../../src/activities/types.js';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import { operationsLog } from '../../src/metrics/index.js';
import { tellInFlight } from '../../src/worker/in-flight.js';
import { temporalLogger } from '../../src/worker/temporal-runtime.js';
import { captured } from '../support/captured-stream.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';

// Issue 34, item 6: what the engine did, one line each at info with its ids, written by pino as
// the API's request log is: JSON lines, or one readable line each on a terminal.

const feedbackType = answerLengthEvaluator().feedbackType;
const judge = (name: string, fails = false) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType,
    targets: ['message'],
    source: 'JUDGE',
    estimatedCostUsd: 0.01,
    async evaluate(_subject, context) {
      await context.reportUsage({ model: 'm', inputTokens: 1, outputTokens: 1, costUsd: 0.01 });
      if (fails) throw new Error('the judge is down');
      return { characters: 2, within_limit: true };
    },
  });

const out = captured();
let engine: TestEngine;
beforeAll(async () => {
  engine = testEngine({
    evaluators: [
      judge('helpful'),
      judge('broken', true),
      judge('budgeted'),
      answerLengthEvaluator({ version: '2' }),
      answerLengthEvaluator(),
    ],
    budgets: [
      {
        budgetId: 'weekly',
        evaluator: 'budgeted',
        period: 'week',
        limitUsd: 0.01,
        onExhausted: 'defer',
      },
    ],
    log: operationsLog({ format: 'json', stream: out.stream }),
  });
  await given(
    engine.store,
    'w',
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    ...['m0', 'm1'].map((message_id) => ({
      type: 'post_message',
      thread_id: 't',
      message_id,
      role: 'assistant',
      content: 'hi',
      run_id: 'r',
    })),
  );
});
afterAll(() => engine?.close());

const evaluate = (name: string, message_id: string) =>
  new MockActivityEnvironment({ attempt: 1 })
    .run<[EvaluateInput], EvaluateResult, typeof engine.activities.evaluate>(
      engine.activities.evaluate,
      {
        workspaceId: 'w',
        evaluator: { name, version: '1' },
        target: { kind: 'message', thread_id: 't', message_id, run_id: 'r' },
        generation: 'run',
        workflowId: 'run:w:r',
        record: true,
      },
    )
    .catch((error: unknown) => error);
const linesOf = (event: string) => out.json().filter((line) => line.event === event);

describe('the operations log', () => {
  it('tells of an evaluation started and finished, with its ids and outcome', async () => {
    expect(await evaluate('helpful', 'm0')).toEqual({ outcome: 'recorded' });
    const ids = {
      workspace: 'w',
      target: 'message:t/m0',
      evaluator: 'evaluator:helpful@1',
      generation: 'run',
      attempt: 1,
      workflow: 'run:w:r',
    };
    expect(linesOf('evaluation.started')).toEqual([
      expect.objectContaining({ level: 30, msg: 'evaluation started', ...ids }),
    ]);
    const [finished] = linesOf('evaluation.finished');
    expect(finished).toMatchObject({
      level: 30,
      msg: 'evaluation finished',
      ...ids,
      outcome: 'recorded',
    });
    expect(Number.isInteger(finished.durationMs)).toBe(true);
  });

  it('tells of a failed attempt as a warning with its cause', async () => {
    await evaluate('broken', 'm0');
    expect(
      linesOf('evaluation.finished').filter((l) => l.evaluator === 'evaluator:broken@1'),
    ).toEqual([
      expect.objectContaining({ level: 40, outcome: 'failed', reason: 'the judge is down' }),
    ]);
  });

  it('tells of an evaluation its budget pauses, until when and why', async () => {
    expect(await evaluate('budgeted', 'm0')).toEqual({ outcome: 'recorded' });
    expect(await evaluate('budgeted', 'm1')).toMatchObject({ outcome: 'deferred' });
    expect(linesOf('budget.reached')).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'evaluation paused by its budget',
        workspace: 'w',
        target: 'message:t/m1',
        evaluator: 'evaluator:budgeted@1',
        action: 'defer',
        reason: expect.stringMatching(/^budget_exhausted: budget weekly spent \$0\.01/),
        until: expect.stringMatching(/^\d{4}-\d\d-\d\dT00:00:00\.000Z$/),
      }),
    ]);
  });

  it('tells of a rule set and a version promoted as the relay meets them, with who did it', async () => {
    await given(
      engine.store,
      'w',
      {
        type: 'set_evaluation_rule',
        evaluator: 'answer_length@2',
        targets: ['message'],
        mode: 'shadow',
      },
      {
        type: 'promote_evaluator',
        evaluator: 'answer_length@2',
        replacing: 'answer_length@1',
        rule: { targets: ['message'] },
        replaced_rule: { targets: ['message'] },
        min_kappa: 0.6,
        min_matched: 50,
        evidence: {
          compared: 'answer_length@2:within_limit',
          against: 'reviewers',
          matched: 80,
          kappa: 0.7,
          interval: null,
          raw_agreement: 0.9,
          as_of_seq: 4,
        },
      },
    );
    const events = await engine.store.events({ workspace_id: 'w', limit: 100 });
    const changes = events.filter(
      (e) => e.event.type === 'evaluation_rule_set' || e.event.type === 'evaluator_promoted',
    );
    // A page of rule events signals no workflow: the client is never called.
    const relay = engine.relay({} as Client, 'q', 'w', {
      log: operationsLog({ format: 'json', stream: out.stream }),
    });
    await relay.relayPage(changes);
    const [set, promoted] = [linesOf('rule.set'), linesOf('evaluator.promoted')];
    expect(set).toEqual([
      expect.objectContaining({
        level: 30,
        workspace: 'w',
        evaluator: 'answer_length@2',
        state: 'shadow',
        by: 'system:system',
      }),
    ]);
    expect(promoted).toEqual([
      expect.objectContaining({
        level: 30,
        workspace: 'w',
        evaluator: 'answer_length@2',
        replacing: 'answer_length@1',
        forced: false,
        seq: changes[1]?.seq,
      }),
    ]);
  });

  it('says at start what it resumed, and why not when it cannot count', async () => {
    const counts = {
      runEvaluations: 3,
      threadEvaluations: 0,
      batches: 1,
      reviews: 2,
      traces: 0,
      relayBacklog: 12,
    };
    await tellInFlight(operationsLog({ format: 'json', stream: out.stream }), async () => counts);
    expect(linesOf('engine.resumed')).toEqual([
      expect.objectContaining({ level: 30, msg: 'engine resumed what was in flight', ...counts }),
    ]);
  });

  it('writes one readable line per event on a terminal', () => {
    const text = captured();
    operationsLog({ format: 'text', stream: text.stream }).info(
      { event: 'batch.paused', workspace: 'w', batch: 'b1', kind: 'backfill of runs', done: 3 },
      'batch paused by its budget',
    );
    expect(text.lines).toEqual([
      expect.stringMatching(
        /^\d\d:\d\d:\d\d batch paused by its budget workspace=w batch=b1 kind="backfill of runs" done=3$/,
      ),
    ]);
  });
});

describe("Temporal's log in the operations log", () => {
  const log = captured();
  const temporal = temporalLogger(operationsLog({ format: 'json', stream: log.stream }));
  const context = {
    sdkComponent: 'workflow',
    namespace: 'default',
    taskQueue: 'q',
    runId: 'r1',
    workflowType: 'reevaluate',
    workflowId: 'batch:s:w:b1',
  };

  it("keeps a workflow's event at info with its workflow's id, and the SDK's warnings", () => {
    temporal.info('batch started', { ...context, event: 'batch.started', batch: 'b1', total: 6 });
    temporal.info('Worker state changed', { sdkComponent: 'worker', state: 'STOPPING' });
    temporal.warn('Activity failed', {
      ...context,
      activityType: 'evaluate',
      error: new Error('the judge is down'),
    });
    expect(log.json().map(({ time: _time, pid: _pid, hostname: _host, ...line }) => line)).toEqual([
      {
        level: 30,
        msg: 'batch started',
        event: 'batch.started',
        batch: 'b1',
        total: 6,
        workflow: 'batch:s:w:b1',
      },
      {
        level: 40,
        msg: 'Activity failed',
        event: 'temporal',
        workflow: 'batch:s:w:b1',
        activity: 'evaluate',
        error: 'the judge is down',
      },
    ]);
  });
});

import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import type { evaluateRun } from '../../src/workflows/evaluate-run.js';
import { evaluateRunWorkflowId } from '../../src/workflows/evaluate-run-messages.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';
import { testWorker, timeSkippingEnvironment, uniqueTaskQueue } from '../support/temporal.js';

// A budget that defers: the evaluation waits durably (a timer in the run's history) for the
// budget's next period, and is judged when it starts. On the time-skipping server the week's wait
// passes at once; the activities' clock is moved to the next period before it does.

const centJudge = defineEvaluator({
  name: 'cent_judge',
  version: '1',
  feedbackType: answerLengthEvaluator().feedbackType,
  targets: ['message'],
  source: 'JUDGE',
  estimatedCostUsd: 0.01,
  async evaluate(subject, context) {
    await context.reportUsage({ model: 'm', inputTokens: 1, outputTokens: 1, costUsd: 0.01 });
    return {
      characters: subject.kind === 'message' ? subject.message.content.length : 0,
      within_limit: true,
    };
  },
});

describe('a deferring budget on the time-skipping server', () => {
  let env: TestWorkflowEnvironment;
  let engine: TestEngine;
  // Wednesday 4 March 2026: the week's budget period ends on Monday 9 March.
  let clock = Date.parse('2026-03-04T12:00:00Z');
  beforeAll(async () => {
    env = await timeSkippingEnvironment();
    engine = testEngine({
      evaluators: [centJudge],
      budgets: [
        {
          budgetId: 'weekly',
          evaluator: 'cent_judge',
          period: 'week',
          limitUsd: 0.01,
          onExhausted: 'defer',
        },
      ],
      now: () => clock,
    });
  });
  afterAll(async () => {
    await engine?.close();
    await env?.teardown();
  });

  it('judges what the spent budget deferred once its next period starts', async () => {
    const ws = 'deferred';
    const taskQueue = uniqueTaskQueue();
    const worker = await testWorker(env, taskQueue, engine.activities);
    const result = await worker.runUntil(async () => {
      await given(
        engine.store,
        ws,
        { type: 'create_thread', thread_id: 't' },
        { type: 'start_run', run_id: 'r', thread_id: 't' },
        ...['a1', 'a2'].map((message_id) => ({
          type: 'post_message',
          thread_id: 't',
          message_id,
          role: 'assistant',
          content: 'hello',
          run_id: 'r',
        })),
        { type: 'end_run', run_id: 'r', status: 'completed' },
      );
      await engine.relay(env.client, taskQueue, ws).drain();
      const handle = env.client.workflow.getHandle<typeof evaluateRun>(
        evaluateRunWorkflowId(engine.store.id, ws, 'r'),
      );
      // Time skips only while a result is awaited: until then the deferral's timer just waits.
      const timerStarted = async () =>
        ((await handle.fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes);
      await expect.poll(timerStarted, { timeout: 15_000 }).toBe(true);
      const judged = await engine.store.ledger.evaluations(ws);
      expect(judged).toHaveLength(1);
      clock = Date.parse('2026-03-09T00:00:05Z');
      return handle.result();
    });
    expect(Object.values(result.evaluations).map((e) => e.state)).toEqual(['recorded', 'recorded']);
    // A cent in each week's period, and none held.
    const week = (period_key: string) =>
      engine.store.budgets.spend({ scope: '*', budget_id: 'weekly', period_key });
    expect(await week('2026-03-02')).toEqual({ spent_nanos: 10_000_000, reserved_nanos: 0 });
    expect(await week('2026-03-09')).toEqual({ spent_nanos: 10_000_000, reserved_nanos: 0 });
  });
});

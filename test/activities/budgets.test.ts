import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateInput, EvaluateResult } from '../../src/activities/types.js';
import type { Budget } from '../../src/core/index.js';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';

// Budgets around the evaluate activity: each attempt reserves its estimate in every budget in
// force before the call and settles its reported cost after; a spent budget skips or defers.

const feedbackType = answerLengthEvaluator().feedbackType;
let calls = 0;
/** Costs a cent per call, and declares it as its estimate until it has measured costs. */
const judgeOf = (name: string, failFirst = false) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType,
    targets: ['message'],
    source: 'JUDGE',
    estimatedCostUsd: 0.01,
    async evaluate(_subject, context) {
      calls += 1;
      await context.reportUsage({ model: 'm', inputTokens: 10, outputTokens: 1, costUsd: 0.01 });
      if (failFirst && context.attempt === 1) throw new Error('worker lost');
      return { characters: 2, within_limit: true };
    },
  });
const budgets: Budget[] = [
  {
    budgetId: 'skipper',
    evaluator: 'skipping',
    period: 'day',
    limitUsd: 0.03,
    onExhausted: 'skip',
  },
  {
    budgetId: 'deferrer',
    evaluator: 'deferring@1',
    period: 'week',
    limitUsd: 0.02,
    onExhausted: 'defer',
  },
  { budgetId: 'leaky', evaluator: 'leaking', period: 'day', limitUsd: 1, onExhausted: 'skip' },
];
// Monday 2 March 2026, 10:00 UTC.
let clock = Date.parse('2026-03-02T10:00:00Z');
const warnings: string[] = [];
let engine: TestEngine;
const messages = Array.from({ length: 6 }, (_, i) => `m${i}`);
beforeAll(async () => {
  engine = testEngine({
    evaluators: [judgeOf('skipping'), judgeOf('deferring'), judgeOf('leaking', true)],
    budgets,
    now: () => clock,
    warn: (line) => warnings.push(line),
  });
  await given(
    engine.store,
    'w',
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    ...messages.map((message_id) => ({
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

const input = (name: string, message_id: string, generation = 'run'): EvaluateInput => ({
  workspaceId: 'w',
  evaluator: { name, version: '1' },
  target: { kind: 'message', thread_id: 't', message_id, run_id: 'r' },
  generation,
  workflowId: 'run:w:r',
  record: true,
});
const run = (evaluation: EvaluateInput, attempt = 1) =>
  new MockActivityEnvironment({ attempt }).run<
    [EvaluateInput],
    EvaluateResult,
    typeof engine.activities.evaluate
  >(engine.activities.evaluate, evaluation);

describe('budgets in the evaluate activity', () => {
  it('skips once the period is spent, with the reason in the ledger, and warns once past 80 %', async () => {
    const outcomes = [];
    for (const message of messages.slice(0, 5))
      outcomes.push(await run(input('skipping', message)));
    expect(outcomes.map((o) => o.outcome)).toEqual([
      'recorded',
      'recorded',
      'recorded',
      'skipped',
      'skipped',
    ]);
    const entry = await engine.store.ledger.evaluation('w', {
      generation: 'run',
      participant: 'evaluator:skipping@1',
      target_key: 'message:t/m3',
    });
    expect(entry).toMatchObject({
      state: 'skipped',
      // Money as the limit was set, the spend at least as finely (not `of $0.03`).
      reason: 'budget_exhausted: budget skipper spent $0.0300 of $0.0300 this day',
    });
    const warned = warnings.filter((line) => line.includes('skipper'));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/has spent \$0\.0300 of \$0\.0300: past 80 %$/);
    // Never more than the limit: three calls of a cent against $0.03.
    const [spent] = await engine.store.usage.spend({ participant: 'evaluator:skipping@1' }, []);
    expect(spent?.cost_nanos).toBe(30_000_000);
  });

  it('defers to the next period once spent, and judges when it starts', async () => {
    expect(await run(input('deferring', 'm0'))).toEqual({ outcome: 'recorded' });
    expect(await run(input('deferring', 'm1'))).toEqual({ outcome: 'recorded' });
    const deferred = await run(input('deferring', 'm2'));
    // The week's budget: deferred to Monday 9 March, midnight UTC.
    expect(deferred).toMatchObject({
      outcome: 'deferred',
      untilMs: Date.parse('2026-03-09T00:00:00Z'),
    });
    expect(
      await engine.store.ledger.evaluation('w', {
        generation: 'run',
        participant: 'evaluator:deferring@1',
        target_key: 'message:t/m2',
      }),
    ).toBeNull();
    clock = Date.parse('2026-03-09T00:00:01Z');
    expect(await run(input('deferring', 'm2'))).toEqual({ outcome: 'recorded' });
    clock = Date.parse('2026-03-02T10:00:00Z');
  });

  it("settles a killed attempt's reservation from its usage when the next attempt starts", async () => {
    const before = calls;
    // Attempt 1 reports its cent, then throws: settled with it at once.
    await expect(run(input('leaking', 'm0'), 1)).rejects.toThrow('worker lost');
    // A reservation a killed attempt left open, as if its worker died after the reply.
    const key = {
      workspace_id: 'w',
      generation: 'run',
      participant: 'evaluator:leaking@1',
      target_key: 'message:t/m1',
    };
    const period = { scope: '*', budget_id: 'leaky', period_key: '2026-03-02', limit_nanos: 1e9 };
    await engine.store.budgets.reserve({ ...key, attempt: 1 }, period, 10_000_000);
    await engine.store.usage.recordUsage({
      ...key,
      attempt: 1,
      report: 0,
      model: 'm',
      input_tokens: 10,
      output_tokens: 1,
      cost_nanos: 10_000_000,
    });
    expect(await engine.store.budgets.spend(period)).toEqual({
      spent_nanos: 10_000_000,
      reserved_nanos: 10_000_000,
    });
    expect(await run(input('leaking', 'm1'), 2)).toEqual({ outcome: 'recorded' });
    // Three cents spent (attempt 1 of m0, the killed attempt of m1, attempt 2 of m1); none held.
    expect(await engine.store.budgets.spend(period)).toEqual({
      spent_nanos: 30_000_000,
      reserved_nanos: 0,
    });
    expect(calls - before).toBe(2);
  });
});

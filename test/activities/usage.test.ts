import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  EvaluateInput,
  EvaluateResult,
  MirrorResult,
  MirrorScoresInput,
} from '../../src/activities/types.js';
import { answerLengthEvaluator, defineEvaluator } from '../../src/evaluators/index.js';
import { scoreEvent } from '../../src/scores/langfuse/events.js';
import type { InMemoryScoreSink } from '../../src/testing/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';

// What an evaluation used, recorded by the `evaluate` activity as the evaluator reports it: per
// attempt, at once (so a failed attempt's spend stays), priced by the config's table where the
// evaluator gives no cost, and never twice when an attempt runs again.

const feedbackType = answerLengthEvaluator().feedbackType;
const failFirst = true;
const spender = defineEvaluator({
  name: 'spender',
  version: '1',
  feedbackType,
  targets: ['message'],
  source: 'JUDGE',
  async evaluate(_subject, context) {
    await context.reportUsage({ model: 'priced', inputTokens: 1_000, outputTokens: 200 });
    if (failFirst && context.attempt === 1) throw new Error('the reply was cut off');
    await context.reportUsage({ model: 'own', inputTokens: 5, outputTokens: 5, costUsd: 0.0123 });
    await context.reportUsage({ model: 'unpriced', inputTokens: 7, outputTokens: 3 });
    return { characters: 2, within_limit: true };
  },
});
const liar = defineEvaluator({
  name: 'liar',
  version: '1',
  feedbackType,
  targets: ['message'],
  source: 'JUDGE',
  async evaluate(_subject, context) {
    await context.reportUsage({ model: 'priced', inputTokens: -1, outputTokens: 2 });
    return { characters: 2, within_limit: true };
  },
});

let engine: TestEngine;
beforeAll(async () => {
  engine = testEngine({
    evaluators: [spender, liar],
    // $2.50 and $10 per million tokens: 1,000 in and 200 out is $0.0045.
    pricing: { priced: { inputPerMillionUsd: 2.5, outputPerMillionUsd: 10 } },
  });
  await given(
    engine.store,
    'w',
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
    {
      type: 'post_message',
      thread_id: 't',
      message_id: 'm',
      role: 'assistant',
      content: 'hi',
      run_id: 'r',
    },
  );
});
afterAll(() => engine?.close());

const input = (name: string, generation: string): EvaluateInput => ({
  workspaceId: 'w',
  evaluator: { name, version: '1' },
  target: { kind: 'message', thread_id: 't', message_id: 'm', run_id: 'r' },
  generation,
  workflowId: 'run:w:r',
  record: true,
});
const run = (attempt: number, evaluation: EvaluateInput) =>
  new MockActivityEnvironment({ attempt }).run<
    [EvaluateInput],
    EvaluateResult,
    typeof engine.activities.evaluate
  >(engine.activities.evaluate, evaluation);
const usageOf = (name: string, generation: string) =>
  engine.store.usage.ofEvaluation({
    workspace_id: 'w',
    generation,
    participant: `evaluator:${name}@1`,
    target_key: 'message:t/m',
  });

describe('the usage the evaluate activity records', () => {
  it("keeps a failed attempt's spend, prices tokens by the table, and counts each attempt once", async () => {
    await expect(run(1, input('spender', 'g1'))).rejects.toThrow('cut off');
    // Temporal runs an activity at least once: the same attempt again records nothing new.
    await expect(run(1, input('spender', 'g1'))).rejects.toThrow('cut off');
    expect(await run(2, input('spender', 'g1'))).toEqual({ outcome: 'recorded' });
    const usage = await usageOf('spender', 'g1');
    expect(usage).toMatchObject({
      attempts: 2,
      input_tokens: 1_000 + 1_000 + 5 + 7,
      output_tokens: 200 + 200 + 5 + 3,
      // Two priced calls at $0.0045 and the evaluator's own $0.0123; the unpriced one is unknown.
      cost_nanos: 4_500_000 * 2 + 12_300_000,
      unpriced_reports: 1,
    });
    const byModel = await engine.store.usage.spend(
      { workspace_id: 'w', participant: 'evaluator:spender@1' },
      ['model'],
    );
    expect(byModel.map((row) => [row.model, row.reports, row.cost_nanos])).toEqual([
      ['own', 1, 12_300_000],
      ['priced', 2, 9_000_000],
      ['unpriced', 1, 0],
    ]);
  });

  it('judges a settled evaluation no more, so it spends nothing more', async () => {
    expect(await run(3, input('spender', 'g1'))).toEqual({ outcome: 'settled', state: 'recorded' });
    expect((await usageOf('spender', 'g1')).attempts).toBe(2);
  });

  it('fails for good on usage that is not usage, recording none', async () => {
    await expect(run(1, input('liar', 'g2'))).rejects.toMatchObject({
      type: 'InvalidUsage',
      nonRetryable: true,
      message: expect.stringContaining('inputTokens'),
    });
    expect(await usageOf('liar', 'g2')).toMatchObject({ attempts: 1, input_tokens: 0 });
  });
});

describe('what the mirror sends of a judged evaluation', () => {
  it("sends its verdict's scores alone: nothing of the judge's usage or cost reaches the trace", async () => {
    // spender's verdict (g1) was recorded above, after $0.0213 and 2,224 tokens of usage.
    await new MockActivityEnvironment().run<
      [MirrorScoresInput],
      MirrorResult,
      typeof engine.activities.mirrorScores
    >(engine.activities.mirrorScores, { workspaceId: 'w', afterSeq: 0, limit: 1000 });
    const scores = (engine.sink as InMemoryScoreSink)
      .scores()
      .filter((score) => JSON.stringify(score).includes('spender'));
    expect(scores.length).toBeGreaterThan(0);
    const events = scores.map((score) => scoreEvent(score, { now: new Date() }));
    // A score-create event per score, never a generation or an observation that carries usage.
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(['score-create']));
    for (const event of events) {
      expect(Object.keys(event.body).sort()).toEqual(
        expect.arrayContaining(['dataType', 'id', 'name', 'value']),
      );
      for (const key of Object.keys(event.body)) {
        expect([
          'id',
          'name',
          'value',
          'dataType',
          'traceId',
          'observationId',
          'sessionId',
          'metadata',
          'environment',
          'configId',
          'comment',
        ]).toContain(key);
      }
      const text = JSON.stringify(event).toLowerCase();
      for (const word of ['cost', 'usage', 'token', 'priced', 'usd']) {
        expect(text, word).not.toContain(word);
      }
    }
  });
});

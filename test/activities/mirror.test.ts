import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFeedbackType, type Target } from '../../src/core/index.js';
import { turnOutcomeEvaluator } from '../../src/evaluators/index.js';
import { ScoreSinkError } from '../../src/scores/index.js';
import { InMemoryScoreSink } from '../../src/testing/index.js';
import { given, type TestEngine, testEngine } from '../support/engine.js';

// The mirror's activities on their own (no workflow): their results are what the workflow
// carries, and the sink and ledger are what they change.

let engine: TestEngine;
const sink = new InMemoryScoreSink();
beforeAll(() => {
  engine = testEngine({ evaluators: [turnOutcomeEvaluator()], sink, feedbackTypes: [thumbs] });
});
afterAll(() => engine?.close());

const thumbs = defineFeedbackType({
  name: 'thumbs',
  targets: ['message'],
  schema: z.object({ up: z.boolean() }),
});
const ws = 'mirror-activities';
const target: Target = { kind: 'turn', run_id: 'r' };
const review = (kind: 'submit' | 'revise' | 'withdraw', score?: number) =>
  engine.activities.applyReview({
    workspaceId: ws,
    target,
    kind,
    reviewer: { id: 'rv1' },
    feedback_type: 'review_quality',
    value: score === undefined ? null : { score },
    requestId: `${kind}-${score}`,
  });

it('upserts a revised review in place, confirms it, and deletes it when withdrawn', async () => {
  await given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
  );
  expect(await review('submit', 4)).toMatchObject({ type: 'recorded', is_update: false });
  const first = await engine.activities.mirrorScores({ workspaceId: ws, afterSeq: 0, limit: 100 });
  expect(first.recorded).toHaveLength(1);
  const [id] = first.recorded;
  expect(sink.scores()).toMatchObject([
    {
      id,
      name: 'review_quality.score',
      value: 4,
      sessionId: 't',
      source: { actor: 'reviewer:rv1', actor_kind: 'reviewer', score_source: 'HUMAN' },
    },
  ]);

  expect(await review('revise', 2)).toMatchObject({ type: 'recorded', is_update: true });
  const second = await engine.activities.mirrorScores({
    workspaceId: ws,
    afterSeq: first.lastSeq,
    limit: 100,
  });
  expect(second.recorded).toEqual([id]);
  expect(sink.scores()).toMatchObject([{ id, value: 2 }]);

  expect(
    await engine.activities.reconcileScores({ workspaceId: ws, ids: [id as string], final: false }),
  ).toEqual({
    confirmed: [id],
    missing: [],
    failed: [],
  });

  expect(await review('withdraw')).toMatchObject({ type: 'recorded', removed: true });
  const third = await engine.activities.mirrorScores({
    workspaceId: ws,
    afterSeq: second.lastSeq,
    limit: 100,
  });
  // Every field's id is deleted, including fields the value left unscored (`note` was null).
  expect(third.deleted).toContain(id);
  expect(third.deleted).toHaveLength(2);
  expect(sink.scores()).toEqual([]);
  expect(await engine.store.ledger.scores(ws, { ids: [id as string] })).toMatchObject([
    { state: 'deleted', reason: 'the feedback was withdrawn' },
  ]);
});

it('re-sends a score the sink lost, and marks it failed on the final check', async () => {
  const lost = 'lost-scores';
  await given(
    engine.store,
    lost,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
  );
  await engine.activities.applyReview({
    workspaceId: lost,
    target,
    kind: 'submit',
    reviewer: { id: 'rv2' },
    feedback_type: 'review_quality',
    value: { score: 5 },
    requestId: 'lost-1',
  });
  const { recorded } = await engine.activities.mirrorScores({
    workspaceId: lost,
    afterSeq: 0,
    limit: 100,
  });
  await sink.delete(recorded);
  expect(
    await engine.activities.reconcileScores({ workspaceId: lost, ids: recorded, final: false }),
  ).toEqual({
    confirmed: [],
    missing: recorded,
    failed: [],
  });
  expect((await sink.read(recorded)).size).toBe(1); // sent again
  await sink.delete(recorded);
  expect(
    await engine.activities.reconcileScores({ workspaceId: lost, ids: recorded, final: true }),
  ).toEqual({ confirmed: [], missing: [], failed: recorded });
  expect(await engine.store.ledger.scores(lost, { ids: recorded })).toMatchObject([
    { state: 'failed', reason: 'not readable back with the value sent after every reconciliation' },
  ]);
});

it("upserts a user's replaced rating in place and deletes a deleted one", async () => {
  const rated = 'ratings';
  const trace = 'ef'.repeat(16);
  await given(
    engine.store,
    rated,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't', trace_id: trace },
    {
      type: 'post_message',
      thread_id: 't',
      message_id: 'm',
      role: 'assistant',
      content: 'hi',
      run_id: 'r',
    },
  );
  const rate = (command: object) =>
    engine.store.execute({ workspace_id: rated, actor: { kind: 'user', id: 'u1' }, command });
  const mirror = (afterSeq: number) =>
    engine.activities.mirrorScores({ workspaceId: rated, afterSeq, limit: 100 });
  const message = { thread_id: 't', message_id: 'm', feedback_type: 'thumbs' };

  await rate({ type: 'rate_message', ...message, value: { up: true } });
  const first = await mirror(0);
  await rate({ type: 'rate_message', ...message, value: { up: false } });
  const second = await mirror(first.lastSeq);
  expect(second.recorded).toEqual(first.recorded);
  const scores = (await sink.read(first.recorded)).values();
  expect([...scores]).toMatchObject([{ name: 'thumbs.up', value: false, traceId: trace }]);

  await rate({ type: 'delete_rating', ...message });
  const third = await mirror(second.lastSeq);
  expect(third.deleted).toEqual(first.recorded);
  expect((await sink.read(first.recorded)).size).toBe(0);
});

it("turns a sink's 429 into a retry after its Retry-After, and a refusal into failed scores", async () => {
  const failures = [
    new ScoreSinkError('rate limited', true, 2_000),
    new ScoreSinkError('bad request', false),
  ];
  const failing = testEngine({
    evaluators: [turnOutcomeEvaluator()],
    sink: {
      record: async () => {
        throw failures.shift();
      },
    },
  });
  try {
    await given(
      failing.store,
      'w',
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
    );
    const submitted = await failing.activities.applyReview({
      workspaceId: 'w',
      target,
      kind: 'submit',
      reviewer: { id: 'rv' },
      feedback_type: 'review_quality',
      value: { score: 1 },
      requestId: 'x',
    });
    expect(submitted.type).toBe('recorded');
    const mirror = () =>
      failing.activities.mirrorScores({ workspaceId: 'w', afterSeq: 0, limit: 100 });
    await expect(mirror()).rejects.toMatchObject({
      name: 'ApplicationFailure',
      nonRetryable: false,
      nextRetryDelay: 2_000,
    });
    // Refused for good, the batch's scores fail with the reason, and the mirror goes on.
    const refused = await mirror();
    expect(refused).toMatchObject({ recorded: [], failed: [expect.any(String)] });
    expect(await failing.store.ledger.scores('w', { ids: refused.failed })).toMatchObject([
      { state: 'failed', reason: 'refused: bad request' },
    ]);
  } finally {
    await failing.close();
  }
});

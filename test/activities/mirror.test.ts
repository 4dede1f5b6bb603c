import type { Logger } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { createActivities } from '../../src/activities/create-activities.js';
import type { MirrorResult, MirrorScoresInput } from '../../src/activities/types.js';
import {
  createFeedbackTypeRegistry,
  defineFeedbackType,
  type Target,
} from '../../src/core/index.js';
import { createEvaluatorRegistry, turnOutcomeEvaluator } from '../../src/evaluators/index.js';
import { engineMetrics, Registry } from '../../src/metrics/index.js';
import { ScoreSinkError, scoreId } from '../../src/scores/index.js';
import { LangfuseScoreReader, LangfuseScoreSink } from '../../src/scores/langfuse/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import { InMemoryScoreSink } from '../../src/testing/index.js';
import { given, reviewQuality, type TestEngine, testEngine } from '../support/engine.js';
import { LangfuseTestServer } from '../support/langfuse-server/index.js';

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
  // Every field's id is deleted, including fields the value left unscored (`note` was null),
  // and stays pending until read back gone.
  const deleting = third.deleting ?? [];
  expect(deleting).toContain(id);
  expect(deleting).toHaveLength(2);
  expect(sink.scores()).toEqual([]);
  expect(await engine.store.ledger.scores(ws, { ids: [id as string] })).toMatchObject([
    { state: 'pending', deletion: true },
  ]);
  expect(
    await engine.activities.reconcileDeletes({ workspaceId: ws, ids: deleting, final: false }),
  ).toEqual({ confirmed: deleting, missing: [], failed: [] });
  expect(await engine.store.ledger.scores(ws, { ids: deleting })).toMatchObject([
    { state: 'deleted', reason: 'the feedback was withdrawn' },
    { state: 'deleted', reason: 'the feedback was withdrawn' },
  ]);
  // A write check still due for the withdrawn score leaves it alone instead of re-sending it.
  expect(
    await engine.activities.reconcileScores({ workspaceId: ws, ids: [id as string], final: false }),
  ).toEqual({ confirmed: [], missing: [], failed: [] });
  expect(sink.scores()).toEqual([]);
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
    engine.store.executeUnchecked({
      workspace_id: rated,
      actor: { kind: 'user', id: 'u1' },
      command,
    });
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
  expect(third.deleting).toEqual(first.recorded);
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

it('fails feedback of a type the app does not declare in the score ledger, with its reason and a warning', async () => {
  const ws = 'undeclared';
  await given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't', trace_id: 'cd'.repeat(16) },
    {
      type: 'post_message',
      thread_id: 't',
      message_id: 'm',
      role: 'assistant',
      content: 'hi',
      run_id: 'r',
    },
  );
  const rate = async (command: object) => {
    const outcome = await engine.store.executeUnchecked({
      workspace_id: ws,
      actor: { kind: 'user', id: 'u1' },
      command: { thread_id: 't', message_id: 'm', feedback_type: 'thumbs', ...command },
    });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
    return outcome.events[0] as { id: string; seq: number };
  };
  const rating = await rate({ type: 'rate_message', value: { up: true } });
  // A worker whose app no longer declares `thumbs`, which the log holds feedback of.
  const worker = createActivities({
    store: engine.store,
    evaluators: engine.evaluators,
    feedbackTypes: createFeedbackTypeRegistry([reviewQuality]),
    scoreSink: sink,
    scoreReader: sink,
  });
  const warnings: string[] = [];
  const activity = new MockActivityEnvironment(undefined, { logger: warningsInto(warnings) });
  const mirror = (afterSeq: number) =>
    activity.run<[MirrorScoresInput], MirrorResult, typeof worker.mirrorScores>(
      worker.mirrorScores,
      { workspaceId: ws, afterSeq, limit: 100 },
    );

  const first = await mirror(0);
  // Its ledger id: UUIDv5 of the feedback's identity and its type name.
  const ledgerId = scoreId(rating.id, 'thumbs');
  expect(first).toMatchObject({ recorded: [], failed: [ledgerId], deleting: [] });
  expect(await engine.store.ledger.scores(ws, { ids: [ledgerId] })).toMatchObject([
    {
      seq: rating.seq,
      state: 'failed',
      reason: 'feedback type thumbs is not declared in the app; its feedback was not mirrored',
    },
  ]);
  expect(warnings).toEqual([
    'mirror: feedback type thumbs is not declared in the app; its feedback was not mirrored',
  ]);
  expect((await sink.read([scoreId(rating.id, 'thumbs.up')])).size).toBe(0);

  // Its withdrawal lands on the same entry, as a later event.
  const deleted = await rate({ type: 'delete_rating' });
  const second = await mirror(first.lastSeq);
  expect(second).toMatchObject({ recorded: [], failed: [ledgerId], deleting: [] });
  expect(await engine.store.ledger.scores(ws, { ids: [ledgerId] })).toMatchObject([
    {
      seq: deleted.seq,
      state: 'failed',
      reason:
        'feedback type thumbs is not declared in the app; its withdrawal (rating_deleted) was not mirrored',
    },
  ]);
  expect(warnings).toHaveLength(2);
});

it('deletes again a score Langfuse keeps after answering its delete, and fails one that stays', async () => {
  const { langfuse, mirrored, ws, act } = await reviewedOnLangfuse('kept-deletes');
  try {
    const mirror = (afterSeq: number) =>
      mirrored.activities.mirrorScores({ workspaceId: ws, afterSeq, limit: 100 });
    const reconcile = (ids: string[], final: boolean) =>
      mirrored.activities.reconcileDeletes({ workspaceId: ws, ids, final });

    await act('rv1', 'submit');
    await act('rv2', 'submit');
    const written = await mirror(0);
    const [once, always] = written.recorded as [string, string];
    expect(
      await mirrored.activities.reconcileScores({
        workspaceId: ws,
        ids: written.recorded,
        final: false,
      }),
    ).toMatchObject({ confirmed: [once, always] });

    // Langfuse answers every delete 202, but ignores rv1's first and every one of rv2's.
    const ignoredOnce = new Set<string>();
    langfuse.setIgnoreDeletes(
      (id) => id === always || (id === once && !ignoredOnce.has(id) && !!ignoredOnce.add(id)),
    );
    await act('rv1', 'withdraw');
    await act('rv2', 'withdraw');
    const withdrawn = await mirror(written.lastSeq);
    const deleting = withdrawn.deleting ?? [];
    // Each review's two fields: the scores, and the notes that were never scored (404: gone).
    expect(deleting).toHaveLength(4);
    const notes = deleting.filter((id) => id !== once && id !== always);

    expect(await reconcile(deleting, false)).toEqual({
      confirmed: notes,
      missing: [once, always],
      failed: [],
    });
    expect(await reconcile([once, always], false)).toEqual({
      confirmed: [once],
      missing: [always],
      failed: [],
    });
    expect(await reconcile([always], true)).toEqual({
      confirmed: [],
      missing: [],
      failed: [always],
    });

    const ledger = await mirrored.store.ledger.scores(ws, { ids: deleting });
    expect(Object.fromEntries(ledger.map((e) => [e.score_id, [e.state, e.reason]]))).toEqual({
      ...Object.fromEntries(notes.map((id) => [id, ['deleted', 'the feedback was withdrawn']])),
      [once]: ['deleted', 'the feedback was withdrawn'],
      [always]: ['failed', 'still readable back after every deletion and reconciliation'],
    });
    expect(langfuse.scores().map((row) => row.id)).toEqual([always]);
    // rv2's score was deleted three times: sent, then again after each read-back but the final.
    expect(langfuse.ignoredDeletes()).toEqual([once, always, always, always]);
    expect(langfuse.violations()).toEqual([]);
  } finally {
    await mirrored.close();
    await langfuse.close();
  }
});

// Each delete is its own request: under a steady fault rate a list retried whole, every request
// again, never gets through, so one that fails for now is left for the read-back to send again.
it('deletes the rest of a list when one delete fails for now, and sends that one again on read-back', async () => {
  const { langfuse, mirrored, ws, act } = await reviewedOnLangfuse('faulty-deletes');
  try {
    const reviewers = ['rv1', 'rv2', 'rv3'];
    for (const reviewer of reviewers) await act(reviewer, 'submit');
    const written = await mirrored.activities.mirrorScores({
      workspaceId: ws,
      afterSeq: 0,
      limit: 100,
    });
    expect(written.recorded).toHaveLength(3);

    for (const reviewer of reviewers) await act(reviewer, 'withdraw');
    // The first delete answers 503 (the first id sent: rv1's score), the rest go through.
    langfuse.injectFaults({ operationId: 'legacy_scoreV1_delete', status: 503 });
    const withdrawn = await mirrored.activities.mirrorScores({
      workspaceId: ws,
      afterSeq: written.lastSeq,
      limit: 100,
    });
    const deleting = withdrawn.deleting ?? [];
    expect(withdrawn.failed).toEqual([]);
    expect(deleting).toHaveLength(6); // each review's score and its unscored note
    const [kept] = written.recorded.filter((id) => langfuse.scores().some((row) => row.id === id));
    expect(langfuse.scores().map((row) => row.id)).toEqual([kept]);

    const reconcile = (ids: string[]) =>
      mirrored.activities.reconcileDeletes({ workspaceId: ws, ids, final: false });
    const first = await reconcile(deleting);
    expect(new Set(first.confirmed)).toEqual(new Set(deleting.filter((id) => id !== kept)));
    expect(first).toMatchObject({ missing: [kept], failed: [] });
    expect(langfuse.scores()).toEqual([]);
    expect(await reconcile([kept as string])).toEqual({
      confirmed: [kept],
      missing: [],
      failed: [],
    });
    const ledger = await mirrored.store.ledger.scores(ws, { ids: deleting });
    expect(new Set(ledger.map((entry) => entry.state))).toEqual(new Set(['deleted']));
    expect(langfuse.violations()).toEqual([]);
  } finally {
    await mirrored.close();
    await langfuse.close();
  }
});

/**
 * An engine mirroring into the Langfuse test server, with a run in workspace `ws` to review:
 * `act(reviewer, kind)` submits a review (score 3) or withdraws it.
 */
async function reviewedOnLangfuse(ws: string) {
  const langfuse = await LangfuseTestServer.start();
  const mirrored = testEngine({
    evaluators: [turnOutcomeEvaluator()],
    sink: new LangfuseScoreSink(langfuse.client()),
    reader: new LangfuseScoreReader(langfuse.client()),
  });
  await given(
    mirrored.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    { type: 'start_run', run_id: 'r', thread_id: 't' },
  );
  const act = (reviewer: string, kind: 'submit' | 'withdraw') =>
    mirrored.activities.applyReview({
      workspaceId: ws,
      target,
      kind,
      reviewer: { id: reviewer },
      feedback_type: 'review_quality',
      value: kind === 'submit' ? { score: 3 } : null,
      requestId: `${reviewer}-${kind}`,
    });
  return { langfuse, mirrored, ws, act };
}

/** A logger that keeps each warning's message and drops everything else. */
function warningsInto(warnings: string[]): Logger {
  const ignore = () => {};
  return {
    log: (level, message) => {
      if (level === 'WARN') warnings.push(message);
    },
    trace: ignore,
    debug: ignore,
    info: ignore,
    warn: (message) => warnings.push(message),
    error: ignore,
  };
}

it("tells the metrics what it sent, read back and failed, for the engine's sink", async () => {
  const registry = new Registry();
  const metrics = engineMetrics(registry, { evaluators: [], sink: 'memory' });
  const observed = testEngine({
    evaluators: [turnOutcomeEvaluator()],
    sink: new InMemoryScoreSink(),
    observers: { mirror: metrics.mirror },
  });
  const counted = async (what: string) => {
    const text = await registry.metrics();
    return Number(
      new RegExp(`^evalflow_mirror_score_${what}_total\\{sink="memory"\\} (\\S+)$`, 'm').exec(
        text,
      )?.[1],
    );
  };
  try {
    const watched = 'watched-mirror';
    await given(
      observed.store,
      watched,
      { type: 'create_thread', thread_id: 't' },
      { type: 'start_run', run_id: 'r', thread_id: 't' },
    );
    const act = (kind: 'submit' | 'withdraw', value: { score: number } | null) =>
      observed.activities.applyReview({
        workspaceId: watched,
        target,
        kind,
        reviewer: { id: 'rv9' },
        feedback_type: 'review_quality',
        value,
        requestId: `watched-${kind}`,
      });
    await act('submit', { score: 3 });
    const first = await observed.activities.mirrorScores({
      workspaceId: watched,
      afterSeq: 0,
      limit: 100,
    });
    await observed.activities.reconcileScores({
      workspaceId: watched,
      ids: first.recorded,
      final: false,
    });
    expect([await counted('writes'), await counted('confirmations')]).toEqual([1, 1]);
    await act('withdraw', null);
    const second = await observed.activities.mirrorScores({
      workspaceId: watched,
      afterSeq: first.lastSeq,
      limit: 100,
    });
    const deleting = second.deleting ?? [];
    await observed.activities.reconcileDeletes({
      workspaceId: watched,
      ids: deleting,
      final: false,
    });
    expect([await counted('deletes'), await counted('confirmations')]).toEqual([
      deleting.length,
      1 + deleting.length,
    ]);
    expect(await counted('failures')).toBe(0);
  } finally {
    await observed.close();
  }
});

it('keeps a direct score’s first timestamp when a harness writes it again on a later day', async () => {
  // Langfuse replaces a score only when id, name and the UTC day of its timestamp match: a new
  // day's timestamp would add a second row (it did, before the mirror carried the first one on).
  let clock = Date.parse('2026-05-01T23:00:00Z');
  const store = openSqliteStore(':memory:', {
    feedbackTypes: createFeedbackTypeRegistry([]),
    now: () => new Date(clock),
  });
  const daySink = new InMemoryScoreSink();
  const activities = createActivities({
    store,
    evaluators: createEvaluatorRegistry([]),
    feedbackTypes: createFeedbackTypeRegistry([]),
    scoreSink: daySink,
    scoreReader: daySink,
  });
  try {
    const harness = { kind: 'agent', thread_id: 't' } as const;
    const record = (value: number) =>
      store.execute({
        workspace_id: 'days',
        actor: harness,
        command: {
          type: 'record_score',
          trace_id: 'ab'.repeat(16),
          name: 'latency',
          value,
          source: 'HARNESS',
        },
      });
    expect((await record(1)).type).toBe('recorded');
    await activities.mirrorScores({ workspaceId: 'days', afterSeq: 0, limit: 100 });
    clock += 2 * 60 * 60 * 1000; // the next UTC day
    expect((await record(2)).type).toBe('recorded');
    await activities.mirrorScores({ workspaceId: 'days', afterSeq: 1, limit: 100 });
    expect(daySink.scores()).toMatchObject([
      { name: 'latency', value: 2, timestamp: '2026-05-01T23:00:00.000Z' },
    ]);
  } finally {
    await store.close();
  }
});

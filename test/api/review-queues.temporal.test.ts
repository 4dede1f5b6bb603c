import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reviewItemId } from '../../src/store/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { eventually } from '../support/processes.js';
import { queueApp } from '../support/queue-app.js';
import { devServerEnvironment } from '../support/temporal.js';

// Review queues through the real API (a worker on the dev server, the relays, a SQLite store):
// queues as data, enqueueing, claims and leases, the item view, verdicts through the review
// path, progress, and the reviewer's sign-in token. The API's clock is the test's, so a lease
// expires when the test moves it.

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let clock = Date.parse('2026-05-01T09:00:00Z');
const MINUTE = 60_000;
const keys: Record<string, string> = {};
let workspaceCount = 0;

beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, queueApp, { now: () => new Date(clock) });
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

/** A fresh workspace with keys for the system, an admin and reviewers a to e. */
async function workspace() {
  const ws = `rq-${++workspaceCount}`;
  for (const principal of [
    'system',
    'admin',
    'agent',
    'user:ada',
    'reviewer:a',
    'reviewer:b',
    'reviewer:c',
  ]) {
    keys[`${ws}/${principal}`] = await h.key(principal, ws);
  }
  const key = (principal: string) => keys[`${ws}/${principal}`] as string;
  return { ws, key };
}

/** Completed runs r0.. with a question and an answer each, in thread t. */
async function runs(key: (p: string) => string, count: number) {
  const agent = key('agent');
  await h.call('POST', '/v1/threads', { key: agent, body: { threadId: 't', title: 'Refunds' } });
  for (let i = 0; i < count; i++) {
    await h.call('POST', '/v1/threads/t/runs', { key: agent, body: { runId: `r${i}` } });
    for (const [role, content] of [
      ['ROLE_USER', `question ${i}`],
      ['ROLE_ASSISTANT', `answer ${i}`],
    ]) {
      await h.call('POST', '/v1/threads/t/messages', {
        key: agent,
        body: {
          messageId: `m${i}-${role === 'ROLE_USER' ? 'q' : 'a'}`,
          role,
          content,
          runId: `r${i}`,
        },
      });
    }
    await h.call('POST', `/v1/runs/r${i}/end`, { key: agent, body: { status: 'completed' } });
  }
}

const turn = (i: number) => ({ kind: 'turn', runId: `r${i}` });

describe('review queues over HTTP', () => {
  it('lists the config’s queues and a workspace’s own, set by an admin and audited in the log', async () => {
    const { ws, key } = await workspace();
    const listed = await h.call('GET', '/v1/review-queues', { key: key('reviewer:a') });
    expect(listed.status).toBe(200);
    expect(listed.body.queues).toMatchObject([
      {
        queueId: 'triage',
        feedbackType: 'review_verdict',
        targetKinds: ['turn'],
        reviewersPerItem: 1,
        blind: true,
        leaseSeconds: 900,
        origin: 'config',
        setBy: null,
        progress: { items: 0, pending: 0, leased: 0, done: 0 },
      },
    ]);
    const put = await h.call('PUT', '/v1/review-queues/answers', {
      key: key('admin'),
      body: {
        feedbackType: 'review_verdict',
        targetKinds: ['message'],
        reviewersPerItem: 2,
        showAutomatedVerdicts: true,
        routing: [
          { kind: 'rating_at_most', feedbackType: 'helpfulness', field: 'stars', atMost: 2 },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.queue).toMatchObject({
      queueId: 'answers',
      origin: 'workspace',
      setBy: 'system:admin',
    });
    const [set] = (await h.engine.store.events({ workspace_id: ws, limit: 100 })).filter(
      (e) => e.event.type === 'review_queue_set',
    );
    expect(set).toMatchObject({
      actor: { kind: 'system', name: 'admin' },
      event: { queue_id: 'answers' },
    });
    const one = await h.call('GET', '/v1/review-queues/answers', { key: key('system') });
    expect(one.body).toMatchObject({
      queue: { reviewersPerItem: 2, routing: [{ kind: 'rating_at_most', atMost: 2 }] },
      progress: { items: 0 },
      reviewers: [],
    });
  });

  it('refuses a queue that names no reviewers’ type, a bad setting or a caller who may not set it', async () => {
    const { key } = await workspace();
    const put = (body: object, principal = 'admin') =>
      h.call('PUT', '/v1/review-queues/q', { key: key(principal), body });
    expect((await put({ feedbackType: 'nope' })).status).toBe(404);
    expect((await put({ feedbackType: 'helpfulness' })).body).toMatchObject({
      type: 'validation_failed',
      message: expect.stringContaining('not given by reviewers'),
    });
    expect((await put({ feedbackType: 'review_verdict', reviewersPerItem: 0 })).status).toBe(422);
    expect(
      (
        await put({
          feedbackType: 'review_verdict',
          routing: [{ kind: 'verdict_at_most', evaluator: 'judge@9', field: 'x', atMost: 1 }],
        })
      ).body,
    ).toMatchObject({ type: 'not_found', entity: 'evaluator' });
    expect((await put({ feedbackType: 'review_verdict' }, 'reviewer:a')).status).toBe(403);
    expect((await h.call('GET', '/v1/review-queues/q', { key: key('admin') })).status).toBe(404);
  });

  it('queues targets once however often they are added, by hand or by a filter on the server', async () => {
    const { key } = await workspace();
    await runs(key, 3);
    const add = (body: object) =>
      h.call('POST', '/v1/review-queues/triage/items', { key: key('system'), body });
    const first = await add({ targets: [turn(0), turn(1)] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      added: 2,
      alreadyQueued: 0,
      items: [
        { itemId: reviewItemId('triage', 'turn:r0'), target: turn(0), added: true },
        { itemId: reviewItemId('triage', 'turn:r1'), target: turn(1), added: true },
      ],
    });
    expect((await add({ filter: { kind: 'turn', statuses: ['completed'] } })).body).toEqual({
      added: 1,
      alreadyQueued: 2,
    });
    expect((await add({ targets: [turn(9)] })).body).toMatchObject({
      type: 'not_found',
      entity: 'run',
      id: 'r9',
    });
    expect(
      (await add({ targets: [{ kind: 'message', threadId: 't', messageId: 'm0-a' }] })).body,
    ).toMatchObject({
      type: 'validation_failed',
      message: 'review queue triage takes turn targets, not message',
    });
    expect((await add({ targets: [] })).status).toBe(422);
    expect(
      (
        await h.call('POST', '/v1/review-queues/triage/items', {
          key: key('reviewer:a'),
          body: { targets: [turn(0)] },
        })
      ).status,
    ).toBe(403);
    const progress = await h.call('GET', '/v1/review-queues/triage', { key: key('admin') });
    expect(progress.body.progress).toMatchObject({ items: 3, itemsDone: 0, pending: 3 });
  });

  it('hands a reviewer an item under a lease, shows it, and records the verdict through the review path', async () => {
    const { ws, key } = await workspace();
    await runs(key, 2);
    await h.call('POST', '/v1/review-queues/triage/items', {
      key: key('system'),
      body: { targets: [turn(0), turn(1)] },
    });
    const claimed = await h.call('POST', '/v1/review-queues/triage/claim', {
      key: key('reviewer:a'),
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toEqual({
      item: {
        itemId: reviewItemId('triage', 'turn:r0'),
        target: turn(0),
        slots: 1,
        slotsDone: 0,
        leaseExpiresAt: new Date(clock + 15 * MINUTE).toISOString(),
      },
    });
    const itemId = claimed.body.item.itemId;
    const view = await h.call('GET', `/v1/review-queues/triage/items/${itemId}`, {
      key: key('reviewer:a'),
    });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      queue: { queueId: 'triage', instructions: '# Triage\nJudge the **whole** run.', blind: true },
      item: { itemId, target: turn(0), leaseExpiresAt: claimed.body.item.leaseExpiresAt },
      scoreConfigs: [
        {
          configId: 'review_verdict.verdict',
          dataType: 'CATEGORICAL',
          categories: ['pass', 'fail'],
        },
        { configId: 'review_verdict.note', dataType: 'TEXT' },
      ],
      thread: {
        threadId: 't',
        title: 'Refunds',
        messages: [
          { messageId: 'm0-q', role: 'ROLE_USER', isTarget: true },
          { messageId: 'm0-a', role: 'ROLE_ASSISTANT', content: 'answer 0', isTarget: true },
          { messageId: 'm1-q', isTarget: false },
          { messageId: 'm1-a', isTarget: false },
        ],
      },
      run: {
        runId: 'r0',
        status: 'completed',
        timeline: [{ event: 'started' }, { event: 'ended', status: 'completed' }],
      },
      artifact: null,
      automatedVerdicts: [],
      otherReviews: [],
      myReview: null,
    });
    // Another reviewer may not read an item they never held.
    expect(
      (await h.call('GET', `/v1/review-queues/triage/items/${itemId}`, { key: key('reviewer:b') }))
        .status,
    ).toBe(403);
    const submit = (body: object, principal = 'reviewer:a') =>
      h.call('POST', `/v1/review-queues/triage/items/${itemId}/submit`, {
        key: key(principal),
        body,
      });
    expect((await submit({ value: { verdict: 'pass' } })).status).toBe(400);
    expect((await submit({ value: { verdict: 'pass' }, configId: 'other' })).status).toBe(422);
    expect((await submit({ value: { verdict: 'maybe' }, configId: 'review_verdict' })).status).toBe(
      422,
    );
    expect(
      (await submit({ value: { verdict: 'pass' }, configId: 'review_verdict' }, 'reviewer:b'))
        .status,
    ).toBe(409);
    const submitted = await submit({
      value: { verdict: 'pass', note: 'fine' },
      configId: 'review_verdict',
    });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({
      itemId,
      review: { type: 'recorded', isUpdate: false, position: expect.any(Number) },
      slots: 1,
      slotsDone: 1,
      done: true,
    });
    const feedback = (await h.engine.store.feedback(ws, { participant: 'reviewer:a' }))[0];
    expect(feedback).toMatchObject({
      source: 'HUMAN',
      feedback_type: 'review_verdict',
      value: { verdict: 'pass', note: 'fine' },
    });
    // Done: submitting again, or heartbeating, finds no lease.
    expect((await submit({ value: { verdict: 'fail' }, configId: 'review_verdict' })).status).toBe(
      409,
    );
    const mine = await h.call('GET', '/v1/review-queues/triage/my-reviews', {
      key: key('reviewer:a'),
    });
    expect(mine.body.reviews).toMatchObject([
      {
        itemId,
        target: turn(0),
        review: { value: { verdict: 'pass', note: 'fine' }, rater: 'reviewer:a' },
      },
    ]);
    // Revised through the existing review route: my-reviews shows the new value.
    const revised = await h.call('POST', '/v1/reviews', {
      key: key('reviewer:a'),
      body: {
        action: 'revise',
        target: turn(0),
        feedbackType: 'review_verdict',
        value: { verdict: 'fail' },
        configId: 'review_verdict',
      },
    });
    expect(revised.status, JSON.stringify(revised.body)).toBe(200);
    expect(
      (await h.call('GET', '/v1/review-queues/triage/my-reviews', { key: key('reviewer:a') })).body
        .reviews[0].review.value,
    ).toEqual({ verdict: 'fail', note: '' });
    const progress = await h.call('GET', '/v1/review-queues/triage', { key: key('admin') });
    expect(progress.body).toMatchObject({
      progress: {
        items: 2,
        itemsDone: 1,
        pending: 1,
        leased: 0,
        done: 1,
        throughput: { lastHour: 1, lastDay: 1 },
      },
      reviewers: [{ reviewer: 'reviewer:a', leased: 0, done: 1, skipped: 0 }],
    });
  });

  it('counts verdicts given through POST /v1/reviews in the queue, and hands no one a target done so', async () => {
    const { key } = await workspace();
    await runs(key, 4);
    await h.call('POST', '/v1/review-queues/triage/items', {
      key: key('system'),
      body: { targets: [turn(0), turn(1), turn(2)] },
    });
    // a leases r0, then reviews every run outside the queue; r3 is not queued yet.
    const leased = await h.call('POST', '/v1/review-queues/triage/claim', {
      key: key('reviewer:a'),
    });
    expect(leased.body.item.target).toEqual(turn(0));
    for (let i = 0; i < 4; i++) {
      const reviewed = await h.call('POST', '/v1/reviews', {
        key: key('reviewer:a'),
        body: {
          action: 'submit',
          target: turn(i),
          feedbackType: 'review_verdict',
          value: { verdict: 'pass' },
          configId: 'review_verdict',
        },
      });
      expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    }
    const progress = async () =>
      (await h.call('GET', '/v1/review-queues/triage', { key: key('admin') })).body;
    expect(await progress()).toMatchObject({
      progress: { items: 3, itemsDone: 3, pending: 0, leased: 0, done: 3 },
      reviewers: [{ reviewer: 'reviewer:a', leased: 0, done: 3 }],
    });
    const claim = async (principal: string) =>
      (await h.call('POST', '/v1/review-queues/triage/claim', { key: key(principal) })).body;
    expect(await claim('reviewer:a')).toEqual({ item: null });
    expect(await claim('reviewer:b')).toEqual({ item: null });
    // Queued after her verdict, r3 is done as it arrives.
    const added = await h.call('POST', '/v1/review-queues/triage/items', {
      key: key('system'),
      body: { targets: [turn(3)] },
    });
    expect(added.body).toMatchObject({ added: 1 });
    expect((await progress()).progress).toMatchObject({ items: 4, itemsDone: 4, pending: 0 });
    expect(await claim('reviewer:b')).toEqual({ item: null });
    const mine = await h.call('GET', '/v1/review-queues/triage/my-reviews', {
      key: key('reviewer:a'),
    });
    expect(mine.body.reviews.map((r: { target: object }) => r.target)).toHaveLength(4);
  });

  it('records a retried submit once', async () => {
    const { ws, key } = await workspace();
    await runs(key, 1);
    await h.call('POST', '/v1/review-queues/triage/items', {
      key: key('system'),
      body: { targets: [turn(0)] },
    });
    const itemId = (
      await h.call('POST', '/v1/review-queues/triage/claim', { key: key('reviewer:a') })
    ).body.item.itemId;
    const body = { value: { verdict: 'pass' }, configId: 'review_verdict' };
    const [one, two] = await Promise.all([
      h.call('POST', `/v1/review-queues/triage/items/${itemId}/submit`, {
        key: key('reviewer:a'),
        body,
      }),
      h.call('POST', `/v1/review-queues/triage/items/${itemId}/submit`, {
        key: key('reviewer:a'),
        body,
      }),
    ]);
    expect([one.status, two.status].sort()).toContain(200);
    const given = (await h.engine.store.events({ workspace_id: ws, limit: 10_000 })).filter(
      (e) => e.event.type === 'feedback_given' && e.actor.kind === 'reviewer',
    );
    expect(given).toHaveLength(1);
    expect((await h.engine.store.reviewQueues.item(ws, 'triage', itemId))?.slots_done).toBe(1);
  });

  it('keeps a lease with heartbeats, returns a released item to its place and a skipped one to the end', async () => {
    const { key } = await workspace();
    await runs(key, 3);
    await h.call('POST', '/v1/review-queues/triage/items', {
      key: key('system'),
      body: { targets: [turn(0), turn(1), turn(2)] },
    });
    const claim = async (principal: string) =>
      (await h.call('POST', '/v1/review-queues/triage/claim', { key: key(principal) })).body.item;
    const act = (principal: string, itemId: string, action: string) =>
      h.call('POST', `/v1/review-queues/triage/items/${itemId}/${action}`, { key: key(principal) });
    const first = await claim('reviewer:a');
    clock += 10 * MINUTE;
    const beat = await act('reviewer:a', first.itemId, 'heartbeat');
    expect(beat.body).toEqual({
      itemId: first.itemId,
      leaseExpiresAt: new Date(clock + 15 * MINUTE).toISOString(),
    });
    expect((await act('reviewer:b', first.itemId, 'heartbeat')).body).toMatchObject({
      type: 'invalid_state',
      message: `reviewer:b holds no live lease on item ${first.itemId} of review queue triage; claim again`,
    });
    expect((await act('reviewer:a', first.itemId, 'release')).body).toEqual({
      itemId: first.itemId,
      released: true,
    });
    expect((await act('reviewer:a', first.itemId, 'release')).status).toBe(409);
    expect((await claim('reviewer:b')).target).toEqual(turn(0));
    const second = await claim('reviewer:a');
    expect(second.target).toEqual(turn(1));
    expect((await act('reviewer:a', second.itemId, 'skip')).body).toEqual({
      itemId: second.itemId,
      skipped: true,
    });
    expect((await claim('reviewer:c')).target).toEqual(turn(2));
    expect((await claim('reviewer:a')).target).toEqual(turn(1));
    expect(await claim('reviewer:a')).toBeNull();
    const progress = await h.call('GET', '/v1/review-queues/triage', { key: key('admin') });
    expect(progress.body.progress).toMatchObject({ leased: 3, pending: 0, skipped: 1 });
    expect(
      progress.body.reviewers.find((r: { reviewer: string }) => r.reviewer === 'reviewer:a'),
    ).toMatchObject({
      leased: 1,
      skipped: 1,
    });
  });

  it('hands an expired lease to the next reviewer; its former holder can neither keep nor submit it', async () => {
    const { ws, key } = await workspace();
    await runs(key, 1);
    await h.call('POST', '/v1/review-queues/triage/items', {
      key: key('system'),
      body: { targets: [turn(0)] },
    });
    const a = (await h.call('POST', '/v1/review-queues/triage/claim', { key: key('reviewer:a') }))
      .body.item;
    expect(
      (await h.call('POST', '/v1/review-queues/triage/claim', { key: key('reviewer:b') })).body
        .item,
    ).toBeNull();
    clock += 15 * MINUTE;
    const b = (await h.call('POST', '/v1/review-queues/triage/claim', { key: key('reviewer:b') }))
      .body.item;
    expect(b.itemId).toBe(a.itemId);
    const late = await h.call('POST', `/v1/review-queues/triage/items/${a.itemId}/submit`, {
      key: key('reviewer:a'),
      body: { value: { verdict: 'fail' }, configId: 'review_verdict' },
    });
    expect(late.status).toBe(409);
    expect(
      (
        await h.call('POST', `/v1/review-queues/triage/items/${a.itemId}/heartbeat`, {
          key: key('reviewer:a'),
        })
      ).status,
    ).toBe(409);
    const done = await h.call('POST', `/v1/review-queues/triage/items/${b.itemId}/submit`, {
      key: key('reviewer:b'),
      body: { value: { verdict: 'pass' }, configId: 'review_verdict' },
    });
    expect(done.body).toMatchObject({ done: true });
    const reviewers = (await h.engine.store.feedback(ws, { feedback_type: 'review_verdict' })).map(
      (f) => f.participant,
    );
    expect(reviewers).toEqual(['reviewer:b']);
  });

  it('hides other reviewers’ verdicts on a blind queue until the caller gives theirs', async () => {
    const { key } = await workspace();
    await runs(key, 1);
    await h.call('PUT', '/v1/review-queues/pair', {
      key: key('admin'),
      body: { feedbackType: 'review_verdict', targetKinds: ['turn'], reviewersPerItem: 2 },
    });
    await h.call('POST', '/v1/review-queues/pair/items', {
      key: key('system'),
      body: { targets: [turn(0)] },
    });
    const claim = async (p: string) =>
      (await h.call('POST', '/v1/review-queues/pair/claim', { key: key(p) })).body.item;
    const a = await claim('reviewer:a');
    const b = await claim('reviewer:b');
    expect(b.itemId).toBe(a.itemId);
    expect(await claim('reviewer:c')).toBeNull();
    await h.call('POST', `/v1/review-queues/pair/items/${a.itemId}/submit`, {
      key: key('reviewer:a'),
      body: { value: { verdict: 'pass' }, configId: 'review_verdict' },
    });
    const view = (p: string) =>
      h.call('GET', `/v1/review-queues/pair/items/${a.itemId}`, { key: key(p) });
    expect((await view('reviewer:b')).body).toMatchObject({
      otherReviews: [],
      myReview: null,
      item: { slotsDone: 1 },
    });
    expect((await view('reviewer:a')).body).toMatchObject({
      otherReviews: [],
      myReview: { rater: 'reviewer:a' },
    });
    await h.call('POST', `/v1/review-queues/pair/items/${a.itemId}/submit`, {
      key: key('reviewer:b'),
      body: { value: { verdict: 'fail' }, configId: 'review_verdict' },
    });
    expect((await view('reviewer:b')).body.otherReviews).toMatchObject([
      { rater: 'reviewer:a', value: { verdict: 'pass' } },
    ]);
    expect((await view('admin')).body.otherReviews).toHaveLength(2);
  });

  it('reveals the others’ verdicts in the answer to a submit, and to no one before their own', async () => {
    const { key } = await workspace();
    await runs(key, 1);
    await h.call('PUT', '/v1/review-queues/reveal', {
      key: key('admin'),
      body: { feedbackType: 'review_verdict', targetKinds: ['turn'], reviewersPerItem: 3 },
    });
    await h.call('POST', '/v1/review-queues/reveal/items', {
      key: key('system'),
      body: { targets: [turn(0)] },
    });
    const claim = async (p: string) =>
      (await h.call('POST', '/v1/review-queues/reveal/claim', { key: key(p) })).body.item;
    const submit = (p: string, verdict: string) =>
      h.call('POST', `/v1/review-queues/reveal/items/${item.itemId}/submit`, {
        key: key(p),
        body: { value: { verdict }, configId: 'review_verdict' },
      });
    const item = await claim('reviewer:a');
    await claim('reviewer:b');
    await claim('reviewer:c');
    const first = await submit('reviewer:a', 'pass');
    expect(first.status).toBe(200);
    expect(first.body.otherReviews).toEqual([]);
    const second = await submit('reviewer:b', 'fail');
    expect(second.body.otherReviews).toMatchObject([
      { rater: 'reviewer:a', value: { verdict: 'pass' } },
    ]);
    // Reviewer c has given no verdict: the item still shows c none of the others'.
    const unseen = await h.call('GET', `/v1/review-queues/reveal/items/${item.itemId}`, {
      key: key('reviewer:c'),
    });
    expect(unseen.body).toMatchObject({ otherReviews: [], myReview: null });
    const third = await submit('reviewer:c', 'pass');
    expect(third.body.otherReviews.map((r: { rater: string }) => r.rater).sort()).toEqual([
      'reviewer:a',
      'reviewer:b',
    ]);
    // My reviews shows them beside one's verdict, and nothing beside a withdrawn one.
    const mine = async (p: string) =>
      (await h.call('GET', '/v1/review-queues/reveal/my-reviews', { key: key(p) })).body.reviews;
    expect((await mine('reviewer:b'))[0].otherReviews).toHaveLength(2);
    await h.call('POST', '/v1/reviews', {
      key: key('reviewer:b'),
      body: { action: 'withdraw', target: turn(0), feedbackType: 'review_verdict' },
    });
    expect(await mine('reviewer:b')).toMatchObject([{ review: null, otherReviews: [] }]);
  });

  it('archives a queue: it keeps its items, takes no new ones and hands none out', async () => {
    const { key } = await workspace();
    await runs(key, 1);
    await h.call('POST', '/v1/review-queues/triage/items', {
      key: key('system'),
      body: { targets: [turn(0)] },
    });
    const archived = await h.call('DELETE', '/v1/review-queues/triage', { key: key('admin') });
    expect(archived.body).toMatchObject({
      queue: { archived: true, origin: 'workspace' },
      seq: expect.any(Number),
    });
    expect(
      (await h.call('DELETE', '/v1/review-queues/triage', { key: key('admin') })).body,
    ).toMatchObject({ seq: null });
    expect((await h.call('GET', '/v1/review-queues', { key: key('admin') })).body.queues).toEqual(
      [],
    );
    expect(
      (await h.call('GET', '/v1/review-queues?includeArchived=true', { key: key('admin') })).body
        .queues,
    ).toMatchObject([{ queueId: 'triage', archived: true, progress: { items: 1 } }]);
    expect(
      (await h.call('POST', '/v1/review-queues/triage/claim', { key: key('reviewer:a') })).status,
    ).toBe(409);
    expect(
      (
        await h.call('POST', '/v1/review-queues/triage/items', {
          key: key('system'),
          body: { targets: [turn(0)] },
        })
      ).status,
    ).toBe(409);
    const restored = await h.call('PUT', '/v1/review-queues/triage', {
      key: key('admin'),
      body: { feedbackType: 'review_verdict', targetKinds: ['turn'] },
    });
    expect(restored.body.queue.archived).toBe(false);
    expect(
      (await h.call('POST', '/v1/review-queues/triage/claim', { key: key('reviewer:a') })).body
        .item,
    ).not.toBeNull();
  });

  it('routes completed runs, low ratings and evaluators’ verdicts into queues as they happen', async () => {
    const { ws, key } = await workspace();
    const put = (queue: string, body: object) =>
      h.call('PUT', `/v1/review-queues/${queue}`, {
        key: key('admin'),
        body: { feedbackType: 'review_verdict', ...body },
      });
    await put('sampled', {
      targetKinds: ['turn'],
      routing: [{ kind: 'completed_runs', sampleRate: 1 }],
    });
    await put('answers', {
      targetKinds: ['message'],
      showAutomatedVerdicts: true,
      routing: [
        { kind: 'rating_at_most', feedbackType: 'helpfulness', field: 'stars', atMost: 2 },
        { kind: 'verdict_at_most', evaluator: 'answer_length@1', field: 'characters', atMost: 8 },
      ],
    });
    await runs(key, 2);
    const rated = await h.call('PUT', '/v1/threads/t/messages/m1-a/rating', {
      key: key('user:ada'),
      body: { feedbackType: 'helpfulness', value: { helpful: false, stars: 1 } },
    });
    expect(rated.status).toBe(200);
    const items = async (queue: string) =>
      (await h.call('GET', `/v1/review-queues/${queue}`, { key: key('admin') })).body.progress
        .items;
    expect(
      await eventually(
        () => items('sampled'),
        (n) => n === 2,
        30_000,
      ),
    ).toBe(2);
    expect(
      await eventually(
        () => items('answers'),
        (n) => n === 2,
        30_000,
      ),
    ).toBe(2);
    // Both answers are in by the rating or by their verdicts; the view shows the verdicts.
    const verdicts = () => h.engine.store.feedback(ws, { feedback_type: 'answer_length' });
    expect(await eventually(verdicts, (found) => found.length === 2, 30_000)).toHaveLength(2);
    const claimed = (
      await h.call('POST', '/v1/review-queues/answers/claim', { key: key('reviewer:a') })
    ).body.item;
    expect(claimed.target).toMatchObject({
      kind: 'message',
      threadId: 't',
      runId: expect.any(String),
    });
    const view = await h.call('GET', `/v1/review-queues/answers/items/${claimed.itemId}`, {
      key: key('reviewer:a'),
    });
    expect(view.body.automatedVerdicts).toEqual([
      {
        evaluator: 'answer_length@1',
        feedbackType: 'answer_length',
        value: { characters: 8, within_limit: true },
      },
    ]);
    expect(view.body.thread.messages.filter((m: { isTarget: boolean }) => m.isTarget)).toHaveLength(
      1,
    );
    // The other answer, rated by ada: her rating is shown beside it.
    await h.call('POST', `/v1/review-queues/answers/items/${claimed.itemId}/release`, {
      key: key('reviewer:a'),
    });
    const m1 = reviewItemId('answers', 'message:t/m1-a');
    const claims = [
      (await h.call('POST', '/v1/review-queues/answers/claim', { key: key('reviewer:b') })).body
        .item,
      (await h.call('POST', '/v1/review-queues/answers/claim', { key: key('reviewer:b') })).body
        .item,
    ];
    expect(claims.map((item) => item.itemId)).toContain(m1);
    const ratings = (
      await h.call('GET', `/v1/review-queues/answers/items/${m1}`, { key: key('reviewer:b') })
    ).body.ratings;
    expect(ratings).toMatchObject([
      { rater: 'user:ada', feedbackType: 'helpfulness', value: { stars: 1 } },
    ]);
  });

  it('signs a reviewer in with a short-lived token in the page’s fragment, refused once it expires', async () => {
    const { key } = await workspace();
    const link = await h.call('POST', '/v1/reviewers/grace/sign-in', {
      key: key('system'),
      body: { expiresInSeconds: 600 },
    });
    expect(link.status).toBe(201);
    expect(link.body).toMatchObject({
      principal: 'reviewer:grace',
      expiresAt: new Date(clock + 600_000).toISOString(),
      path: `/ui/#token=${link.body.token}`,
    });
    expect(link.body.token).toMatch(/^esi_/);
    const asGrace = await h.call('GET', '/v1/review-queues', { key: link.body.token });
    expect(asGrace.status).toBe(200);
    expect(
      (await h.call('POST', '/v1/review-queues/triage/claim', { key: link.body.token })).status,
    ).toBe(200);
    expect(
      (await h.call('POST', '/v1/reviewers/grace/sign-in', { key: key('reviewer:a'), body: {} }))
        .status,
    ).toBe(403);
    expect(
      (
        await h.call('POST', '/v1/reviewers/grace/sign-in', {
          key: key('admin'),
          body: { expiresInSeconds: 10 },
        })
      ).status,
    ).toBe(422);
    clock += 601_000;
    expect((await h.call('GET', '/v1/review-queues', { key: link.body.token })).body).toMatchObject(
      {
        type: 'unauthenticated',
        message: 'the credential has expired',
      },
    );
  });
});

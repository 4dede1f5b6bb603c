import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EvalflowApiError,
  EvalflowClient,
  type LedgerEntry,
  type ReevaluationProgress,
} from '../../src/client/index.js';
import type { Envelope } from '../../src/core/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { clientTestApp } from '../support/client-app.js';
import { eventually } from '../support/processes.js';
import { devServerEnvironment } from '../support/temporal.js';

// EvalflowClient against the API with its real parts (SQLite store, worker and relays on the dev
// server): every method at least once, and each refusal as a typed error.

let env: TestWorkflowEnvironment;
let h: ApiHarness;
const as = async (principal: string, workspace?: string) =>
  new EvalflowClient({ baseUrl: h.url, apiKey: await h.key(principal, workspace) });
let agent: EvalflowClient;
let system: EvalflowClient;

beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, clientTestApp);
  agent = await as('agent');
  system = await as('system');
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

/** A thread with a run, a user question and an assistant answer (`{run}-a`), ended. */
async function reported(thread: string, run: string) {
  await agent.createThread({ threadId: thread });
  await agent.startRun(thread, { runId: run, traceId: 'ab'.repeat(16) });
  await agent.postMessage(thread, {
    messageId: `${run}-q`,
    role: 'ROLE_USER',
    content: 'Where?',
    runId: run,
  });
  await agent.postMessage(thread, {
    messageId: `${run}-a`,
    role: 'ROLE_ASSISTANT',
    content: 'Here.',
    runId: run,
  });
  await agent.endRun(run, { status: 'completed' });
}

/** The error a call was refused with, checked to be the client's typed refusal. */
async function refusal(call: Promise<unknown>): Promise<EvalflowApiError> {
  const error = await call.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(EvalflowApiError);
  return error as EvalflowApiError;
}

async function collect<T>(items: AsyncIterable<T>, count = Number.POSITIVE_INFINITY) {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
    if (out.length >= count) break;
  }
  return out;
}

describe('EvalflowClient', () => {
  it('answers liveness and readiness', async () => {
    expect(await system.health()).toEqual({ status: 'ok', checks: {} });
    expect(await system.ready()).toEqual({ status: 'ok', checks: { store: 'ok', temporal: 'ok' } });
  });

  it('reports a run through its lifecycle and reads it back, the ledger page by page', async () => {
    expect(await agent.createThread({ threadId: 't-life', title: 'Refunds' })).toMatchObject({
      threadId: 't-life',
      seq: expect.any(Number),
      eventIds: [expect.any(String)],
    });
    const started = await agent.startRun('t-life', { runId: 'r-life', traceId: 'ab'.repeat(16) });
    expect(started).toMatchObject({ runId: 'r-life', resumed: false });
    expect((await agent.pauseRun('r-life', { reason: 'waiting on the user' })).seq).toBe(
      (started.seq ?? 0) + 1,
    );
    expect(await agent.startRun('t-life', { runId: 'r-life' })).toMatchObject({ resumed: true });
    await agent.postMessage('t-life', { role: 'ROLE_USER', content: 'Q3?', runId: 'r-life' });
    const answer = await agent.postMessage('t-life', {
      role: 'ROLE_ASSISTANT',
      content: 'Attached.',
      runId: 'r-life',
    });
    expect(answer.messageId).toEqual(expect.any(String));
    const artifact = await agent.putArtifact('doc-life', {
      kind: 'report',
      data: { title: 'Q3' },
      runId: 'r-life',
    });
    expect(artifact).toMatchObject({ artifactId: 'doc-life', version: 1 });
    await agent.endRun('r-life', { status: 'completed' });
    expect((await agent.archiveArtifact('doc-life')).eventIds).toHaveLength(1);

    const conversation = await agent.conversation('t-life');
    expect(conversation.messages.map((m) => [m.role, m.content])).toEqual([
      ['ROLE_USER', 'Q3?'],
      ['ROLE_ASSISTANT', 'Attached.'],
    ]);
    const read = await eventually(
      () => system.run('r-life'),
      (reply) => reply.evaluations.length >= 2,
    );
    expect(read.run).toMatchObject({ runId: 'r-life', status: 'completed' });
    expect(read.evaluations.map((e) => [e.evaluator, e.target.kind, e.state]).sort()).toEqual([
      ['answer_length@1', 'message', 'recorded'],
      ['artifact_schema@1', 'artifact', 'recorded'],
    ]);

    const ofRun = await system.ledger({ runId: 'r-life', state: 'recorded' });
    expect(ofRun.entries.map((e) => e.evaluator)).toEqual(['answer_length@1']);
    const page = await system.ledger({ limit: 1 });
    expect(page.entries).toHaveLength(1);
    expect(page.nextCursor).not.toBeNull();
    const whole = await system.ledger({ limit: 1000 });
    expect(whole.entries.length).toBeGreaterThanOrEqual(2);
    const all: LedgerEntry[] = await collect(system.ledgerEntries({ limit: 1 }));
    expect(all).toEqual(whole.entries);
  });

  it('sends reported times, and one too far ahead comes back as a validation_failed', async () => {
    await agent.createThread({ threadId: 't-times' });
    const startedAt = '2026-03-01T08:00:00.000Z';
    await agent.startRun('t-times', { runId: 'r-times', startedAt });
    await agent.postMessage('t-times', {
      messageId: 'q',
      role: 'ROLE_USER',
      content: 'Hi?',
      runId: 'r-times',
      postedAt: '2026-03-01T09:00:01+01:00',
    });
    const ahead = new Date(Date.now() + 3_600_000).toISOString();
    const refused = await refusal(agent.endRun('r-times', { status: 'completed', endedAt: ahead }));
    expect([refused.status, refused.type]).toEqual([422, 'validation_failed']);
    await agent.endRun('r-times', { status: 'completed', endedAt: '2026-03-01T08:00:09Z' });
    expect((await agent.run('r-times')).run).toMatchObject({
      startedAt,
      updatedAt: '2026-03-01T08:00:09.000Z',
    });
    const [message] = (await agent.conversation('t-times')).messages;
    expect(message?.postedAt).toBe('2026-03-01T08:00:01.000Z');
  });

  it('ends a thread, reads it back with each generation judged, and sets a thread rule', async () => {
    await reported('t-end', 'r-end');
    const ended = await agent.endThread('t-end');
    expect(ended).toEqual({ seq: expect.any(Number), eventIds: [expect.any(String)] });
    const read = await eventually(
      () => system.thread('t-end'),
      (reply) => reply.evaluations.length === 1,
    );
    expect(read.thread).toMatchObject({ threadId: 't-end', endedAt: expect.any(String) });
    expect(read.evaluations[0]).toMatchObject({
      generation: `thread:${ended.seq}`,
      evaluator: 'resolution@1',
      target: { kind: 'thread', threadId: 't-end' },
      state: 'recorded',
    });
    const ofThread = await system.ledger({ threadId: 't-end' });
    expect(ofThread.entries).toEqual(read.evaluations);
    expect((await refusal(agent.endThread('t-end'))).status).toBe(409);

    const admin = await as('admin');
    await admin.evaluationRules.set('resolution@1', { targets: ['thread'], idleFor: '1h' });
    const rules = (await admin.evaluationRules.list()).rules;
    expect(rules.find((r) => r.evaluator === 'resolution@1')).toMatchObject({ idleFor: '1h' });
    expect(
      (
        await refusal(
          admin.evaluationRules.set('resolution@1', { targets: ['thread'], idleFor: 'soon' }),
        )
      ).status,
    ).toBe(422);
    await admin.evaluationRules.set('resolution@1', { targets: ['thread'], idleFor: '30m' });
  });

  it('rates as a user through a minted token, replaces the rating and deletes it', async () => {
    await reported('t-rate', 'r-rate');
    const minted = await system.userTokens.create({ userId: 'ada', name: 'Ada', ttlSeconds: 600 });
    expect(minted.principal).toBe('user:ada');
    const ada = system.withKey(minted.token);
    const first = await ada.rateMessage('t-rate', 'r-rate-a', {
      feedbackType: 'helpfulness',
      value: { helpful: true, stars: 4 },
    });
    expect(first).toEqual({
      isUpdate: false,
      ratedMessage: {
        messageId: 'r-rate-a',
        threadId: 't-rate',
        runId: 'r-rate',
        feedback: [
          { rater: 'user:ada', feedbackType: 'helpfulness', value: { helpful: true, stars: 4 } },
        ],
      },
    });
    const replaced = await ada.rateMessage('t-rate', 'r-rate-a', {
      feedbackType: 'helpfulness',
      value: { helpful: false, stars: 2 },
    });
    expect(replaced.isUpdate).toBe(true);
    const summary = await system.scoresSummary({ source: 'SCORE_SOURCE_USER' });
    expect(summary.groups.find((g) => g.name === 'helpfulness.stars')).toMatchObject({
      source: 'SCORE_SOURCE_USER',
      count: 1,
      mean: 2,
    });
    expect(await ada.deleteRating('t-rate', 'r-rate-a', 'helpfulness')).toEqual({
      removed: true,
      ratedMessage: { messageId: 'r-rate-a', threadId: 't-rate', runId: 'r-rate', feedback: [] },
    });
    expect((await ada.deleteRating('t-rate', 'r-rate-a', 'helpfulness')).removed).toBeUndefined();
  });

  it("gives an evaluator's feedback, and a reviewer's submit, revise and withdraw in order", async () => {
    await reported('t-rev', 'r-rev');
    const judge = await as('evaluator:answer_length@1');
    const given = await judge.giveFeedback({
      feedbackType: 'answer_length',
      target: { kind: 'message', messageId: 'r-rev-a', threadId: 't-rev', runId: 'r-rev' },
      value: { characters: 5, within_limit: true },
    });
    expect(given.eventIds).toHaveLength(1);

    const grace = await as('reviewer:grace');
    const target = { kind: 'turn', runId: 'r-rev' } as const;
    const review = { target, feedbackType: 'review_verdict', configId: 'review_verdict' };
    expect(await grace.reviews.submit({ ...review, value: { verdict: 'pass' } })).toMatchObject({
      type: 'recorded',
      isUpdate: false,
      position: 0,
    });
    expect(
      await grace.reviews.revise({ ...review, value: { verdict: 'fail', note: 'on reflection' } }),
    ).toMatchObject({ isUpdate: true, position: 1 });
    expect(await grace.reviews.withdraw({ target, feedbackType: 'review_verdict' })).toMatchObject({
      type: 'recorded',
      removed: true,
      position: 2,
    });
  });

  it('records a score, and lists, creates and archives score configs', async () => {
    expect(
      await system.recordScore({
        traceId: 'cd'.repeat(16),
        name: 'latency_ok',
        value: true,
        source: 'SCORE_SOURCE_HARNESS',
      }),
    ).toMatchObject({ scoreName: 'latency_ok', eventIds: [expect.any(String)] });

    const admin = await as('admin');
    expect((await admin.scoreConfigs.list()).configs.map((c) => c.name)).toEqual(
      expect.arrayContaining(['helpfulness.stars', 'review_verdict.verdict']),
    );
    expect(
      await admin.scoreConfigs.create({
        name: 'custom.quality',
        dataType: 'NUMERIC',
        minValue: 0,
        maxValue: 1,
      }),
    ).toMatchObject({ configId: 'custom.quality', isArchived: false, minValue: 0, maxValue: 1 });
    expect((await admin.scoreConfigs.archive('custom.quality')).configs).toEqual([
      expect.objectContaining({ name: 'custom.quality', isArchived: true }),
    ]);
    const names = async (includeArchived: boolean) =>
      (await admin.scoreConfigs.list({ includeArchived })).configs.map((c) => c.name);
    expect(await names(false)).not.toContain('custom.quality');
    expect(await names(true)).toContain('custom.quality');
  });

  it("lists the rules in force and sets a workspace's own", async () => {
    const admin = await as('admin', 'ws-rules');
    expect((await admin.evaluationRules.list()).rules.map((r) => [r.evaluator, r.origin])).toEqual([
      ['answer_length@1', 'config'],
      ['artifact_schema@1', 'config'],
      ['resolution@1', 'config'],
    ]);
    expect(
      (
        await admin.evaluationRules.set('answer_length@1', {
          targets: ['message'],
          sampleRate: 0.5,
        })
      ).eventIds,
    ).toHaveLength(1);
    expect((await admin.evaluationRules.list()).rules[0]).toMatchObject({
      evaluator: 'answer_length@1',
      sampleRate: 0.5,
      origin: 'workspace',
      setBy: 'system:admin',
    });
  });

  it('starts, pauses, resumes, watches and cancels re-evaluations', async () => {
    const batch = await as('system', 'ws-batch');
    for (const id of ['a', 'b', 'c']) {
      await batch.putArtifact(id, { kind: 'report', data: { title: id } });
    }
    const request = { selector: { kind: 'report' }, evaluators: ['artifact_schema@1'] };
    const { id } = await batch.reevaluations.start({ ...request, concurrency: 1 });
    expect(await batch.reevaluations.pause(id)).toMatchObject({ paused: true, finished: false });
    expect(await batch.reevaluations.progress(id)).toMatchObject({ paused: true });
    expect(await batch.reevaluations.resume(id)).toMatchObject({ paused: false });
    const seen: ReevaluationProgress[] = await collect(
      batch.reevaluations.watch(id, { intervalMs: 100 }),
    );
    expect(seen.slice(0, -1).every((p) => !p.finished)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ total: 3, done: 3, recorded: 3, finished: true });
    const late = await refusal(batch.reevaluations.cancel(id));
    expect(late).toMatchObject({ status: 409, type: 'invalid_state' });

    const other = await batch.reevaluations.start(request);
    expect(await batch.reevaluations.cancel(other.id)).toMatchObject({ cancelled: true });
    const last = (await collect(batch.reevaluations.watch(other.id, { intervalMs: 100 }))).at(-1);
    expect(last).toMatchObject({ cancelled: true, finished: true });
  });

  it("streams the workspace's and a thread's events as envelopes, from a given seq", async () => {
    const events = await as('system', 'ws-events');
    for (const threadId of ['e1', 'e2']) await events.createThread({ threadId });
    const stream = events.events();
    const iterator = stream[Symbol.asyncIterator]();
    const first = (await iterator.next()).value as Envelope;
    expect(first).toMatchObject({
      seq: 1,
      workspace_id: 'ws-events',
      event: { type: 'thread_created', thread_id: 'e1' },
    });
    expect(((await iterator.next()).value as Envelope).seq).toBe(2);
    // A live event, written while the stream is open.
    await events.createThread({ threadId: 'e3' });
    expect(((await iterator.next()).value as Envelope).event).toMatchObject({ thread_id: 'e3' });
    expect(stream.lastEventId).toBe(3);
    stream.close();
    expect((await iterator.next()).done).toBe(true);

    const ofThread = await collect(events.events({ threadId: 'e2' }), 1);
    expect(ofThread.map((e) => [e.seq, e.thread_id])).toEqual([[2, 'e2']]);
    const after = await collect(events.events({ after: 2 }), 1);
    expect(after.map((e) => e.seq)).toEqual([3]);
  });

  it('sets and fills a review queue, works through it as a signed-in reviewer, and archives it', async () => {
    await reported('t-queue', 'r-queue');
    const admin = await as('admin');
    const set = await admin.reviewQueues.set('checks', {
      feedbackType: 'review_verdict',
      targetKinds: ['turn', 'message'],
      reviewersPerItem: 1,
      showAutomatedVerdicts: true,
    });
    expect(set.queue).toMatchObject({ queueId: 'checks', origin: 'workspace', blind: true });
    const added = await system.reviewQueues.add('checks', {
      targets: [{ kind: 'turn', runId: 'r-queue' }],
    });
    expect(added).toMatchObject({ added: 1, alreadyQueued: 0 });
    expect(
      await system.reviewQueues.add('checks', {
        filter: { kind: 'message', threadId: 't-queue' },
      }),
    ).toEqual({ added: 1, alreadyQueued: 0 });
    const signIn = await system.reviewers.signIn('grace', { expiresInSeconds: 600 });
    expect(signIn.path).toBe(`/ui/#token=${signIn.token}`);
    const grace = system.withKey(signIn.token);
    expect((await grace.reviewQueues.list()).queues.map((q) => q.queueId)).toContain('checks');
    const first = (await grace.reviewQueues.claim('checks')).item;
    expect(first?.target).toEqual({ kind: 'turn', runId: 'r-queue' });
    const itemId = first?.itemId as string;
    const view = await grace.reviewQueues.item('checks', itemId);
    expect(view.run?.runId).toBe('r-queue');
    expect((await grace.reviewQueues.heartbeat('checks', itemId)).itemId).toBe(itemId);
    expect((await grace.reviewQueues.skip('checks', itemId)).skipped).toBe(true);
    const second = (await grace.reviewQueues.claim('checks')).item;
    expect(second?.target).toMatchObject({ kind: 'message', messageId: 'r-queue-a' });
    expect((await grace.reviewQueues.release('checks', second?.itemId as string)).released).toBe(
      true,
    );
    let submitted = 0;
    for (let item = (await grace.reviewQueues.claim('checks')).item; item !== null; ) {
      const answer = await grace.reviewQueues.submit('checks', item.itemId, {
        value: { verdict: 'pass' },
        configId: 'review_verdict',
      });
      expect(answer.done).toBe(true);
      submitted += 1;
      item = (await grace.reviewQueues.claim('checks')).item;
    }
    expect(submitted).toBe(2);
    expect((await grace.reviewQueues.myReviews('checks', { limit: 10 })).reviews).toHaveLength(2);
    const detail = await admin.reviewQueues.get('checks');
    expect(detail.progress).toMatchObject({ items: 2, itemsDone: 2, skipped: 1 });
    expect(detail.reviewers).toMatchObject([{ reviewer: 'reviewer:grace', done: 2 }]);
    expect((await admin.reviewQueues.archive('checks')).queue.archived).toBe(true);
    expect(await refusal(grace.reviewQueues.claim('checks'))).toMatchObject({
      status: 409,
      type: 'invalid_state',
    });
  });

  it('refuses with typed errors carrying the status and the rejection body', async () => {
    const missing = await refusal(system.run('nope'));
    expect(missing).toMatchObject({
      status: 404,
      type: 'not_found',
      entity: 'run',
      id: 'nope',
      message: 'run nope does not exist',
      request: 'GET /v1/runs/nope',
      requestId: expect.any(String),
    });
    await agent.createThread({ threadId: 't-twice' });
    expect(await refusal(agent.createThread({ threadId: 't-twice' }))).toMatchObject({
      status: 409,
      type: 'conflict',
      body: { type: 'conflict', message: 'thread t-twice exists already' },
    });
    const invalid = await refusal(
      agent.postMessage('t-twice', { role: 'ROLE_ROBOT' as 'ROLE_USER', content: 'beep' }),
    );
    expect(invalid).toMatchObject({ status: 422, type: 'validation_failed' });
    expect(invalid.errors?.length).toBeGreaterThan(0);
    const token = await system.userTokens.create({ userId: 'cy' });
    expect(
      await refusal(
        system.withKey(token.token).postMessage('t-twice', { role: 'ROLE_USER', content: 'hi' }),
      ),
    ).toMatchObject({ status: 403, type: 'forbidden' });
    const stranger = new EvalflowClient({ baseUrl: h.url, apiKey: 'efk_nonsense' });
    expect(await refusal(stranger.conversation('t-twice'))).toMatchObject({
      status: 401,
      type: 'unauthenticated',
      message: 'the credential is malformed',
    });
    // An event stream the key may not read is refused the same way, from the loop.
    const judge = await as('evaluator:answer_length@1');
    expect(await refusal(collect(judge.events()))).toMatchObject({
      status: 403,
      type: 'forbidden',
    });
  });
});

import { Validator } from '@seriousme/openapi-schema-validator';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { answerLengthEvaluator, artifactSchemaEvaluator } from '../../src/evaluators/index.js';
import { JsonlScoreSink } from '../../src/scores/file/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { eventually } from '../support/processes.js';
import { devServerEnvironment } from '../support/temporal.js';

const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean(), stars: z.int().min(1).max(5) }),
});
const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['turn', 'message'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']), note: z.string().default('') }),
});
const app = defineConfig({
  feedbackTypes: [helpfulness, reviewVerdict],
  evaluators: [
    answerLengthEvaluator(),
    artifactSchemaEvaluator({ schemas: { report: z.object({ title: z.string() }) } }),
  ],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
});

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let system = '';
let agent = '';
let ada = '';
let bob = '';
let grace = '';
let admin = '';
let judge = '';
/** The API's clock: the system's, unless a test stops it here. */
let stopped: Date | null = null;
beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, app, { now: () => stopped ?? new Date() });
  const principals = ['system', 'agent', 'user:ada', 'user:bob', 'reviewer:grace', 'admin'];
  const keys = await Promise.all([...principals, 'evaluator:answer_length@1'].map((p) => h.key(p)));
  const at = (i: number) => keys[i] ?? '';
  [system, agent, ada, bob, grace, admin, judge] = [
    at(0),
    at(1),
    at(2),
    at(3),
    at(4),
    at(5),
    at(6),
  ];
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

/** A thread with a run, a user message and an assistant answer, reported by the agent. */
async function conversation(thread: string, run: string, { end = true } = {}) {
  expect(
    (await h.call('POST', '/v1/threads', { key: agent, body: { threadId: thread } })).status,
  ).toBe(201);
  expect(
    (
      await h.call('POST', `/v1/threads/${thread}/runs`, {
        key: agent,
        body: { runId: run, traceId: 'ab'.repeat(16) },
      })
    ).status,
  ).toBe(201);
  for (const [messageId, role, content] of [
    [`${run}-q`, 'ROLE_USER', 'Where is my refund?'],
    [`${run}-a`, 'ROLE_ASSISTANT', 'On its way.'],
  ]) {
    const posted = await h.call('POST', `/v1/threads/${thread}/messages`, {
      key: agent,
      body: { messageId, role, content, runId: run, feedback: { ignored: true } },
    });
    expect(posted.status).toBe(201);
  }
  if (end) {
    expect(
      (await h.call('POST', `/v1/runs/${run}/end`, { key: agent, body: { status: 'completed' } }))
        .status,
    ).toBe(200);
  }
}

describe('the HTTP API', () => {
  it('serves liveness, readiness, a valid OpenAPI 3.1 document and a docs page, without a key', async () => {
    expect((await h.call('GET', '/healthz')).body).toEqual({ status: 'ok', checks: {} });
    expect((await h.call('GET', '/readyz')).body).toEqual({
      status: 'ok',
      checks: { store: 'ok', temporal: 'ok' },
    });
    const document = (await h.call('GET', '/openapi.json')).body;
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    expect(await validator.validate(document)).toEqual({ valid: true });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/v1/threads',
        '/v1/threads/{threadId}/messages/{messageId}/rating',
        '/v1/reviews',
      ]),
    );
    const docs = await fetch(`${h.url}/docs`, { redirect: 'follow' });
    expect(docs.status).toBe(200);
  });

  it('refuses a missing, malformed, unknown or revoked credential with 401, a revoked key at once', async () => {
    for (const key of [undefined, 'nonsense', `efk_${'0'.repeat(32)}_${'A'.repeat(32)}`]) {
      const reply = await h.call('GET', '/v1/evaluation-rules', { ...(key ? { key } : {}) });
      expect(reply.status).toBe(401);
      expect(reply.body.type).toBe('unauthenticated');
    }
    const key = await h.key('system');
    expect((await h.call('GET', '/v1/evaluation-rules', { key })).status).toBe(200);
    const id = key.split('_')[1] as string;
    expect(await h.engine.store.apiKeys.revoke(id)).toBe(true);
    expect((await h.call('GET', '/v1/evaluation-rules', { key })).body).toMatchObject({
      type: 'unauthenticated',
      message: 'the credential was revoked',
    });
  });

  it('reports a run through its lifecycle, and refuses what breaks a rule with the core’s rejection', async () => {
    await conversation('t-life', 'r-life', { end: false });
    expect(
      (await h.call('POST', '/v1/threads', { key: agent, body: { threadId: 't-life' } })).body,
    ).toEqual({
      type: 'conflict',
      message: 'thread t-life exists already',
    });
    expect(
      (await h.call('POST', '/v1/runs/r-life/pause', { key: agent, body: { reason: 'waiting' } }))
        .status,
    ).toBe(200);
    const resumed = await h.call('POST', '/v1/threads/t-life/runs', {
      key: agent,
      body: { runId: 'r-life' },
    });
    expect(resumed.body).toMatchObject({ runId: 'r-life', resumed: true });
    // A pause with no body at all is a pause without a reason (it answered 422 before).
    expect((await h.call('POST', '/v1/runs/r-life/pause', { key: agent })).status).toBe(200);
    expect(
      (await h.call('POST', '/v1/threads/t-life/runs', { key: agent, body: { runId: 'r-life' } }))
        .body,
    ).toMatchObject({ resumed: true });
    const missing = await h.call('POST', '/v1/runs/nope/end', {
      key: agent,
      body: { status: 'completed' },
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ type: 'not_found', entity: 'run', id: 'nope' });
    const badRole = await h.call('POST', '/v1/threads/t-life/messages', {
      key: agent,
      body: { role: 'ROLE_ROBOT', content: 'x' },
    });
    expect(badRole.status).toBe(422);
    expect(badRole.body.type).toBe('validation_failed');
    const malformed = await h.call('POST', '/v1/threads', { key: agent, body: '{"threadId": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.type).toBe('bad_request');
    const huge = await h.call('POST', '/v1/threads/t-life/messages', {
      key: agent,
      body: { role: 'ROLE_USER', content: 'x'.repeat(3 * 1024 * 1024) },
    });
    expect(huge.status).toBe(413);
    // Sending is not a feedback path: the feedback sent along with the messages was ignored.
    expect(await h.engine.store.feedback('ws', { thread_id: 't-life' })).toEqual([]);
    expect(
      (await h.call('POST', '/v1/runs/r-life/end', { key: agent, body: { status: 'completed' } }))
        .status,
    ).toBe(200);
    const artifact = await h.call('PUT', '/v1/artifacts/doc-1', {
      key: agent,
      body: { kind: 'report', data: { title: 'Q3' } },
    });
    expect(artifact.body).toMatchObject({ type: 'validation_failed' });
  });

  it('keeps the reported times of a run and its messages; one too far ahead is a 422 that records nothing', async () => {
    const post = (path: string, body: unknown) => h.call('POST', path, { key: agent, body });
    expect((await post('/v1/threads', { threadId: 't-times' })).status).toBe(201);
    const startedAt = '2026-03-01T09:00:00+01:00';
    expect((await post('/v1/threads/t-times/runs', { runId: 'r-times', startedAt })).status).toBe(
      201,
    );
    const question = { messageId: 'q', role: 'ROLE_USER', content: 'Hi?', runId: 'r-times' };
    const early = await post('/v1/threads/t-times/messages', {
      ...question,
      postedAt: '2026-03-01T07:59:59Z',
    });
    expect(early.status).toBe(422);
    expect(early.body.message).toBe(
      "message q reported at 2026-03-01T07:59:59.000Z precedes run r-times's start (2026-03-01T08:00:00.000Z)",
    );
    expect(
      (
        await post('/v1/threads/t-times/messages', {
          ...question,
          postedAt: '2026-03-01T08:00:01Z',
        })
      ).status,
    ).toBe(201);
    const ahead = new Date(Date.now() + 60 * 60_000).toISOString();
    const refused = await post('/v1/runs/r-times/end', { status: 'completed', endedAt: ahead });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      type: 'validation_failed',
      message: expect.stringContaining("is more than 5 minutes ahead of the store's clock"),
    });
    expect(
      (await post('/v1/runs/r-times/end', { status: 'completed', endedAt: 'soon' })).status,
    ).toBe(422);
    expect(
      (await post('/v1/runs/r-times/end', { status: 'completed', endedAt: '2026-03-01T08:00:09Z' }))
        .status,
    ).toBe(200);
    const run = (await h.call('GET', '/v1/runs/r-times', { key: system })).body.run;
    expect(run).toMatchObject({
      status: 'completed',
      startedAt: '2026-03-01T08:00:00.000Z',
      updatedAt: '2026-03-01T08:00:09.000Z',
    });
    expect(await h.engine.store.message('ws', 't-times', 'q')).toMatchObject({
      posted_at: '2026-03-01T08:00:01.000Z',
    });
    const { paths } = (await h.call('GET', '/openapi.json')).body;
    const bodyOf = (path: string) =>
      paths[path].post.requestBody.content['application/json'].schema;
    expect(bodyOf('/v1/threads/{threadId}/runs').properties.startedAt).toMatchObject({
      type: 'string',
      format: 'date-time',
    });
    expect(bodyOf('/v1/runs/{runId}/end').properties).toHaveProperty('endedAt');
    expect(bodyOf('/v1/threads/{threadId}/messages').properties).toHaveProperty('postedAt');
  });

  it("plays the rating scenario: every rater's entry, isUpdate, removed, assistant messages only", async () => {
    await conversation('t-rate', 'r-rate');
    const path = '/v1/threads/t-rate/messages/r-rate-a/rating';
    const first = await h.call('PUT', path, {
      key: ada,
      body: { feedbackType: 'helpfulness', value: { helpful: true, stars: 4 } },
    });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      ratedMessage: {
        messageId: 'r-rate-a',
        threadId: 't-rate',
        runId: 'r-rate',
        feedback: [
          { rater: 'user:ada', feedbackType: 'helpfulness', value: { helpful: true, stars: 4 } },
        ],
      },
      isUpdate: false,
    });
    await h.call('PUT', path, {
      key: bob,
      body: { feedbackType: 'helpfulness', value: { helpful: false, stars: 2 } },
    });
    const replaced = await h.call('PUT', path, {
      key: ada,
      body: { feedbackType: 'helpfulness', value: { helpful: true, stars: 5 } },
    });
    expect(replaced.body.isUpdate).toBe(true);
    expect(replaced.body.ratedMessage.feedback.map((f: { rater: string }) => f.rater)).toEqual([
      'user:ada',
      'user:bob',
    ]);
    const removed = await h.call('DELETE', `${path}?feedbackType=helpfulness`, { key: ada });
    expect(removed.body).toEqual({
      removed: true,
      ratedMessage: {
        messageId: 'r-rate-a',
        threadId: 't-rate',
        runId: 'r-rate',
        feedback: [
          { rater: 'user:bob', feedbackType: 'helpfulness', value: { helpful: false, stars: 2 } },
        ],
      },
    });
    const absent = await h.call('DELETE', `${path}?feedbackType=helpfulness`, { key: ada });
    expect(absent.status).toBe(200);
    expect(absent.body.removed).toBeUndefined();
    const userMessage = await h.call('PUT', '/v1/threads/t-rate/messages/r-rate-q/rating', {
      key: ada,
      body: { feedbackType: 'helpfulness', value: { helpful: true, stars: 1 } },
    });
    expect(userMessage.status).toBe(409);
    expect(userMessage.body.type).toBe('invalid_state');
    const read = await h.call('GET', '/v1/threads/t-rate/conversation', { key: ada });
    // The run has ended, so answer_length's verdict on the answer may be there too, or not yet.
    const ratings = (feedback?: { feedbackType: string }[]) =>
      feedback?.filter((f) => f.feedbackType === 'helpfulness').length;
    expect(
      read.body.messages.map((m: { role: string; feedback?: { feedbackType: string }[] }) => [
        m.role,
        ratings(m.feedback),
      ]),
    ).toEqual([
      ['ROLE_USER', undefined],
      ['ROLE_ASSISTANT', 1],
    ]);
  });

  it('gives a user token only rating and reading, as the user it names, until it expires', async () => {
    await conversation('t-token', 'r-token');
    // The API's clock stands still until the test moves it past the token's one second.
    const minting = new Date();
    stopped = minting;
    onTestFinished(() => {
      stopped = null;
    });
    const minted = await h.call('POST', '/v1/user-tokens', {
      key: system,
      body: { userId: 'cy', name: 'Cy', ttlSeconds: 1 },
    });
    expect(minted.status).toBe(201);
    expect(minted.body.principal).toBe('user:cy');
    const token = minted.body.token as string;
    const rated = await h.call('PUT', '/v1/threads/t-token/messages/r-token-a/rating', {
      key: token,
      body: { feedbackType: 'helpfulness', value: { helpful: true, stars: 3 } },
    });
    expect(rated.body.ratedMessage.feedback[0].rater).toBe('user:cy');
    const posting = await h.call('POST', '/v1/threads/t-token/messages', {
      key: token,
      body: { role: 'ROLE_USER', content: 'hi' },
    });
    expect(posting.status).toBe(403);
    expect(
      (await h.call('POST', '/v1/user-tokens', { key: ada, body: { userId: 'x' } })).status,
    ).toBe(403);
    stopped = new Date(minting.getTime() + 999);
    expect((await h.call('GET', '/v1/threads/t-token/conversation', { key: token })).status).toBe(
      200,
    );
    stopped = new Date(minting.getTime() + 1000);
    expect(
      (await h.call('GET', '/v1/threads/t-token/conversation', { key: token })).body,
    ).toMatchObject({
      type: 'unauthenticated',
      message: 'the credential has expired',
    });
  });

  it('lets an evaluator key only give feedback, as that evaluator version', async () => {
    await conversation('t-eval', 'r-eval');
    const given = await h.call('POST', '/v1/feedback', {
      key: judge,
      body: {
        feedbackType: 'answer_length',
        target: { kind: 'message', messageId: 'r-eval-a', threadId: 't-eval', runId: 'r-eval' },
        value: { characters: 11, within_limit: true },
      },
    });
    expect(given.status).toBe(201);
    const stored = await h.engine.store.feedback('ws', {
      participant: 'evaluator:answer_length@1',
      thread_id: 't-eval',
    });
    expect(stored.some((f) => f.id === given.body.eventIds[0])).toBe(true);
    for (const [method, path] of [
      ['GET', '/v1/threads/t-eval/conversation'],
      ['POST', '/v1/threads'],
      ['GET', '/v1/events'],
    ] as const) {
      const reply = await h.call(method, path, {
        key: judge,
        ...(method === 'POST' ? { body: { threadId: 'x' } } : {}),
      });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body.type).toBe('forbidden');
    }
  });

  it("keeps workspaces apart: another workspace's key finds nothing (404)", async () => {
    await conversation('t-mine', 'r-mine');
    const stranger = await h.key('system', 'other-ws');
    const reply = await h.call('GET', '/v1/threads/t-mine/conversation', { key: stranger });
    expect(reply.status).toBe(404);
    expect((await h.call('GET', '/v1/runs/r-mine', { key: stranger })).status).toBe(404);
  });

  it('replays a write with the same Idempotency-Key and records it once; another body is a conflict', async () => {
    const headers = { 'idempotency-key': 'create-t-idem' };
    const first = await h.call('POST', '/v1/threads', {
      key: agent,
      body: { threadId: 't-idem' },
      headers,
    });
    const again = await h.call('POST', '/v1/threads', {
      key: agent,
      body: { threadId: 't-idem' },
      headers,
    });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const events = await h.engine.store.events({ workspace_id: 'ws', thread_id: 't-idem' });
    expect(events).toHaveLength(1);
    const other = await h.call('POST', '/v1/threads', {
      key: agent,
      body: { threadId: 't-other' },
      headers,
    });
    expect(other.status).toBe(409);
    expect(other.body.type).toBe('conflict');
  });

  it('serializes reviews through the review workflow; HUMAN feedback without its configId is a 400', async () => {
    await conversation('t-rev', 'r-rev');
    const target = { kind: 'turn', runId: 'r-rev' };
    const review = (action: string, extra: object = {}) =>
      h.call('POST', '/v1/reviews', {
        key: grace,
        body: { action, target, feedbackType: 'review_verdict', ...extra },
      });
    const noConfig = await review('submit', { value: { verdict: 'pass' } });
    expect(noConfig.status).toBe(400);
    expect((await review('submit', { value: { verdict: 'pass' }, configId: 'other' })).status).toBe(
      422,
    );
    const submitted = await review('submit', {
      value: { verdict: 'pass' },
      configId: 'review_verdict',
    });
    expect(submitted.body).toMatchObject({ type: 'recorded', isUpdate: false, position: 0 });
    const twice = await review('submit', {
      value: { verdict: 'fail' },
      configId: 'review_verdict',
    });
    expect(twice.status).toBe(409);
    const revised = await review('revise', {
      value: { verdict: 'fail', note: 'on reflection' },
      configId: 'review_verdict',
    });
    expect(revised.body).toMatchObject({ type: 'recorded', isUpdate: true, position: 2 });
    expect(
      (
        await h.call('POST', '/v1/reviews', {
          key: ada,
          body: { action: 'withdraw', target, feedbackType: 'review_verdict' },
        })
      ).status,
    ).toBe(403);
  });

  it('reads a run with each evaluation’s ledger state once its evaluators have judged it', async () => {
    await conversation('t-read', 'r-read');
    const read = await eventually(
      () => h.call('GET', '/v1/runs/r-read', { key: system }),
      (reply) => reply.body.evaluations?.length >= 1,
    );
    expect(read.body.run).toMatchObject({ runId: 'r-read', status: 'completed' });
    expect(read.body.evaluations).toEqual([
      expect.objectContaining({
        evaluator: 'answer_length@1',
        target: { kind: 'message', messageId: 'r-read-a', threadId: 't-read', runId: 'r-read' },
        state: 'recorded',
      }),
    ]);
    const ledger = await h.call('GET', '/v1/ledger?runId=r-read&state=recorded', { key: system });
    expect(ledger.body.entries).toHaveLength(1);
  });

  it('lists the rules in force and lets only an admin set a workspace rule', async () => {
    const listed = await h.call('GET', '/v1/evaluation-rules', { key: system });
    expect(
      listed.body.rules.map((r: { evaluator: string; origin: string }) => [r.evaluator, r.origin]),
    ).toEqual([
      ['answer_length@1', 'config'],
      ['artifact_schema@1', 'config'],
    ]);
    const rule = { targets: ['message'], sampleRate: 0.5 };
    expect(
      (await h.call('PUT', '/v1/evaluation-rules/answer_length@1', { key: system, body: rule }))
        .status,
    ).toBe(403);
    expect(
      (await h.call('PUT', '/v1/evaluation-rules/answer_length@1', { key: admin, body: rule }))
        .status,
    ).toBe(200);
    expect(
      (await h.call('PUT', '/v1/evaluation-rules/nope@1', { key: admin, body: rule })).status,
    ).toBe(404);
    const after = await h.call('GET', '/v1/evaluation-rules', { key: admin });
    expect(after.body.rules[0]).toMatchObject({
      evaluator: 'answer_length@1',
      sampleRate: 0.5,
      origin: 'workspace',
      setBy: 'system:admin',
    });
    await h.call('PUT', '/v1/evaluation-rules/answer_length@1', {
      key: admin,
      body: { targets: ['message'] },
    });
  });

  it('streams the log as server-sent events that resume after Last-Event-ID', async () => {
    const ws = 'ws-events';
    const key = await h.key('system', ws);
    for (const threadId of ['e1', 'e2', 'e3']) {
      await h.call('POST', '/v1/threads', { key, body: { threadId } });
    }
    const read = async (headers: Record<string, string>, count: number) => {
      const controller = new AbortController();
      const response = await fetch(`${h.url}/v1/events`, {
        headers: { authorization: `Bearer ${key}`, ...headers },
        signal: controller.signal,
      });
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let text = '';
      const events: { id: number; data: { seq: number; event: { type: string } } }[] = [];
      while (events.length < count) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
        const frames = text.split('\n\n');
        text = frames.pop() ?? '';
        for (const frame of frames) {
          const id = /^id: (\d+)$/m.exec(frame);
          const data = /^data: (.*)$/m.exec(frame);
          if (id && data) events.push({ id: Number(id[1]), data: JSON.parse(data[1] as string) });
        }
      }
      controller.abort();
      return events;
    };
    const all = await read({}, 3);
    expect(all.map((e) => e.id)).toEqual([1, 2, 3]);
    expect(all[0]?.data).toMatchObject({
      seq: 1,
      workspace_id: ws,
      event: { type: 'thread_created', thread_id: 'e1' },
    });
    const resumed = await read({ 'last-event-id': '2' }, 1);
    expect(resumed.map((e) => e.id)).toEqual([3]);
  });

  it('lists, creates and retires score configs; a retired HUMAN config refuses new reviews', async () => {
    const listed = await h.call('GET', '/v1/score-configs', { key: admin });
    expect(listed.body.configs.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['helpfulness.stars', 'review_verdict.verdict']),
    );
    const created = await h.call('POST', '/v1/score-configs', {
      key: admin,
      body: { name: 'custom.quality', dataType: 'NUMERIC', minValue: 0, maxValue: 1 },
    });
    expect(created.status).toBe(201);
    expect(
      (
        await h.call('POST', '/v1/score-configs', {
          key: admin,
          body: { name: 'custom.quality', dataType: 'NUMERIC' },
        })
      ).status,
    ).toBe(409);
    expect(
      (await h.call('PATCH', '/v1/score-configs/nope', { key: admin, body: { isArchived: true } }))
        .status,
    ).toBe(404);
    await conversation('t-arch', 'r-arch');
    const archived = await h.call('PATCH', '/v1/score-configs/review_verdict', {
      key: admin,
      body: { isArchived: true },
    });
    expect(archived.body.configs.every((c: { isArchived: boolean }) => c.isArchived)).toBe(true);
    const active = await h.call('GET', '/v1/score-configs', { key: admin });
    expect(
      active.body.configs.some((c: { name: string }) => c.name.startsWith('review_verdict.')),
    ).toBe(false);
    const withArchived = await h.call('GET', '/v1/score-configs?includeArchived=true', {
      key: admin,
    });
    expect(
      withArchived.body.configs.some((c: { name: string }) => c.name === 'review_verdict.verdict'),
    ).toBe(true);
    const refused = await h.call('POST', '/v1/reviews', {
      key: grace,
      body: {
        action: 'submit',
        target: { kind: 'turn', runId: 'r-arch' },
        feedbackType: 'review_verdict',
        value: { verdict: 'pass' },
        configId: 'review_verdict',
      },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      type: 'invalid_state',
      message: 'score config review_verdict is archived',
    });
  });

  it('summarizes scores by population, never merging sources, evaluators per version', async () => {
    const summary = await eventually(
      () => h.call('GET', '/v1/scores/summary', { key: system }),
      (reply) =>
        reply.body.groups?.some((g: { source: string }) => g.source === 'SCORE_SOURCE_JUDGE'),
    );
    const groups = summary.body.groups as {
      source: string;
      producer: string | null;
      name: string;
      count: number;
      mean: number | null;
    }[];
    expect(groups.find((g) => g.name === 'helpfulness.stars')).toMatchObject({
      source: 'SCORE_SOURCE_USER',
      producer: null,
    });
    // The worker's harness verdicts and the evaluator key's judge verdict: the same evaluator
    // version and name, two sources, never one group.
    expect(
      groups
        .filter((g) => g.name === 'answer_length.characters')
        .map((g) => [g.source, g.producer])
        .sort(),
    ).toEqual([
      ['SCORE_SOURCE_HARNESS', 'answer_length@1'],
      ['SCORE_SOURCE_JUDGE', 'answer_length@1'],
    ]);
    const onlyUsers = await h.call('GET', '/v1/scores/summary?source=SCORE_SOURCE_USER', {
      key: system,
    });
    expect(
      onlyUsers.body.groups.every((g: { source: string }) => g.source === 'SCORE_SOURCE_USER'),
    ).toBe(true);
  });

  it('takes the supported score writes, keyed by trace, rater and name, and refuses the rest with 400', async () => {
    const trace = 'cd'.repeat(16);
    const write = (key: string, body: object) =>
      h.call('POST', '/v1/scores', { key, body: { traceId: trace, ...body } });
    const first = await write(system, {
      name: 'latency_ok',
      value: true,
      source: 'SCORE_SOURCE_HARNESS',
      comment: 'p95',
    });
    expect(first.status).toBe(201);
    const again = await write(system, {
      name: 'latency_ok',
      value: false,
      source: 'SCORE_SOURCE_HARNESS',
    });
    expect(again.status).toBe(201);
    const byReviewer = await write(grace, {
      name: 'helpfulness.stars',
      value: 4,
      source: 'SCORE_SOURCE_HUMAN',
      configId: 'helpfulness.stars',
    });
    expect(byReviewer.status).toBe(201);
    for (const [body, status] of [
      [{ name: 'x', value: 'good', source: 'SCORE_SOURCE_HARNESS' }, 400],
      [{ name: 'x', value: 1, source: 'SCORE_SOURCE_HARNESS', sessionId: 's' }, 400],
      [{ name: 'x', value: 1, source: 'SCORE_SOURCE_USER' }, 400],
      [{ name: 'x', value: 1, source: 'SCORE_SOURCE_HUMAN' }, 400],
      [{ name: 'x', value: 1, source: 'SCORE_SOURCE_HUMAN', configId: 'missing' }, 404],
      [{ name: 'x', value: 1, source: 'SCORE_SOURCE_HARNESS', traceId: 'not-a-trace' }, 422],
    ] as const) {
      const reply = await write(grace, body);
      expect(reply.status, JSON.stringify(body)).toBe(status);
    }
    // The system records harness scores; a HUMAN score is a reviewer's.
    const human = await write(system, {
      name: 'helpfulness.stars',
      value: 1,
      source: 'SCORE_SOURCE_HUMAN',
      configId: 'helpfulness.stars',
    });
    expect(human.status).toBe(403);
    // The mirror sends them: the same trace, rater and name is one score, holding the latest value.
    const scores = new JsonlScoreSink(h.scoresFile);
    const held = await eventually(
      async () => [...(await scores.all()).values()].filter((score) => score.traceId === trace),
      (found) =>
        found.length >= 2 &&
        found.some((score) => score.name === 'latency_ok' && score.value === false),
    );
    expect(
      held.map((score) => [score.name, score.value, score.source.score_source]).sort(),
    ).toEqual([
      ['helpfulness.stars', 4, 'HUMAN'],
      ['latency_ok', false, 'HARNESS'],
    ]);
  });

  it('starts, watches and controls a re-evaluation of artifact versions', async () => {
    const ws = 'ws-batch';
    const key = await h.key('system', ws);
    for (const id of ['a', 'b']) {
      await h.call('PUT', `/v1/artifacts/${id}`, {
        key,
        body: { kind: 'report', data: { title: id } },
      });
    }
    const started = await h.call('POST', '/v1/reevaluations', {
      key,
      body: { selector: { kind: 'report' }, evaluators: ['artifact_schema@1'] },
    });
    expect(started.status).toBe(201);
    const done = await eventually(
      () => h.call('GET', `/v1/reevaluations/${started.body.id}`, { key }),
      (reply) => reply.body.done === 2,
    );
    expect(done.body).toMatchObject({ total: 2, done: 2, recorded: 2 });
    const late = await h.call('POST', `/v1/reevaluations/${started.body.id}/pause`, { key });
    expect(late.status).toBe(409);
    expect(late.body.type).toBe('invalid_state');
    const unknown = await h.call('POST', '/v1/reevaluations', {
      key,
      body: { selector: {}, evaluators: ['nope@1'] },
    });
    expect(unknown.status).toBe(422);
    expect((await h.call('GET', '/v1/reevaluations/never', { key })).status).toBe(404);
  });

  it('previews and starts a backfill of messages with a budget, refusing bad selections', async () => {
    const ws = 'ws-backfill';
    const [key, agentKey] = [await h.key('system', ws), await h.key('agent', ws)];
    await h.call('POST', '/v1/threads', { key: agentKey, body: { threadId: 'bf' } });
    await h.call('POST', '/v1/threads/bf/runs', { key: agentKey, body: { runId: 'bf-1' } });
    for (const messageId of ['bf-q', 'bf-a']) {
      const posted = await h.call('POST', '/v1/threads/bf/messages', {
        key: agentKey,
        body: { messageId, role: 'ROLE_ASSISTANT', content: 'hello', runId: 'bf-1' },
      });
      expect(posted.status).toBe(201);
    }
    const selection = { kind: 'message', threadIds: ['bf'] };
    const preview = await h.call('POST', '/v1/reevaluations/preview', {
      key,
      body: { selection, evaluators: ['answer_length@1'] },
    });
    expect(preview.status).toBe(200);
    // Never judged here, and no declared estimate: the cost is unknown, not 0; the duration
    // assumes the default attempt (2 × (2 s + the engine's 60 ms) over 8 slots, and a page) and
    // says so.
    expect(preview.body).toEqual({
      targets: 2,
      costUsd: null,
      durationMs: 565,
      durationBasis: 'default',
      versions: [
        {
          evaluator: 'answer_length@1',
          targets: 2,
          costPerEvaluationUsd: null,
          costUsd: null,
          costBasis: 'unknown',
          meanAttemptMs: null,
          recordedAttempts: 0,
          durationBasis: 'default',
          durationMs: 515,
        },
      ],
    });
    for (const body of [
      { evaluators: ['answer_length@1'] },
      { selection, selector: {}, evaluators: ['answer_length@1'] },
      { selection: { kind: 'run' }, evaluators: ['answer_length@1'] },
      { selection: { ...selection, sampleFraction: 0 }, evaluators: ['answer_length@1'] },
      { selection, evaluators: ['answer_length@1'], maxCostUsd: 0 },
    ]) {
      const refused = await h.call('POST', '/v1/reevaluations', { key, body });
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.type).toBe('validation_failed');
    }
    const started = await h.call('POST', '/v1/reevaluations', {
      key,
      body: { selection, evaluators: ['answer_length@1'], maxCostUsd: 5 },
    });
    expect(started.status).toBe(201);
    const done = await eventually(
      () => h.call('GET', `/v1/reevaluations/${started.body.id}`, { key }),
      (reply) => reply.body.finished === true,
    );
    expect(done.body).toMatchObject({
      total: 2,
      done: 2,
      recorded: 2,
      spentUsd: 0,
      maxCostUsd: 5,
      pausedBy: null,
    });
    const raised = await h.call('POST', `/v1/reevaluations/${started.body.id}/budget`, {
      key,
      body: { maxCostUsd: 10 },
    });
    expect(raised.status).toBe(409);
    // Judged now: measured at no cost, and "unjudged" leaves both out.
    const again = await h.call('POST', '/v1/reevaluations/preview', {
      key,
      body: { selection: { ...selection, unjudgedOnly: true }, evaluators: ['answer_length@1'] },
    });
    expect(again.body).toMatchObject({ targets: 2, costUsd: 0, versions: [{ targets: 0 }] });
    const bad = await h.call('POST', '/v1/reevaluations/preview', {
      key,
      body: { selection, evaluators: ['nope@1'] },
    });
    expect(bad.status).toBe(422);
    // Its own targets only, named as the API names targets; one of another kind is refused.
    const own = (targets: object[]) =>
      h.call('POST', '/v1/reevaluations/preview', {
        key,
        body: { selection: { kind: 'message', targets }, evaluators: ['answer_length@1'] },
      });
    const one = await own([{ kind: 'message', threadId: 'bf', messageId: 'bf-a' }]);
    expect(one.body).toMatchObject({ targets: 1 });
    const mixed = await own([{ kind: 'turn', runId: 'bf-1' }]);
    expect(mixed.status).toBe(422);
    expect(mixed.body.message).toBe(
      'a selection of message targets names only message targets, not turn:bf-1',
    );
  });
});

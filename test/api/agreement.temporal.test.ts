import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalflowApiError, EvalflowClient } from '../../src/client/index.js';
import { compareSides } from '../../src/evidence/index.js';
import { wireAgreement } from '../../src/wire/agreement.js';
import { judgesApp, storeVerdicts } from '../evidence/stored-verdicts.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { devServerEnvironment } from '../support/temporal.js';

// GET /v1/agreement and POST /v1/evaluation-rules/{evaluator}/promote through the real API and
// the HTTP client, on stored verdicts whose figures test/evidence checks against the reference.

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let reader: EvalflowClient;
let admin: EvalflowClient;
const ws = 'ws';

beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, judgesApp);
  await storeVerdicts(h.engine.store, ws, () => {});
  reader = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('reviewer:grace') });
  admin = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('admin') });
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

const refusal = async (call: Promise<unknown>) => {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(EvalflowApiError);
  return error as EvalflowApiError;
};

describe('GET /v1/agreement', () => {
  it('answers the figures the evidence computes for the same request, targets in camelCase', async () => {
    const answer = await reader.agreement({
      a: 'politeness@2:polite',
      b: 'reviewers',
      targetKind: 'message',
    });
    const direct = await compareSides(h.engine.store, judgesApp, {
      workspaceId: ws,
      a: 'politeness@2:polite',
      b: 'reviewers',
      targetKind: 'message',
    });
    expect(answer).toEqual(JSON.parse(JSON.stringify(wireAgreement(direct))));
    expect(answer.categorical?.kappa.value).toBeCloseTo(0.7826086956521738, 12);
    expect(answer.disagreements.listed[0]?.target).toEqual({
      kind: 'message',
      messageId: 'm8',
      threadId: 't',
      runId: 'r',
    });
  });

  it('takes the label mapping as repeated map parameters', async () => {
    const mapped = await reader.agreement({
      a: 'politeness@2:polite',
      b: 'reviewer:grace:review_verdict.verdict',
      mapping: { pass: 'true', fail: 'false' },
    });
    expect(mapped.mapping).toEqual({ pass: 'true', fail: 'false' });
    expect(mapped.categorical?.kappa.value).toBe(1);
    const key = await h.key('system');
    const raw = await h.call(
      'GET',
      '/v1/agreement?a=politeness%402%3Apolite&b=reviewer%3Agrace%3Areview_verdict.verdict&map=pass%3Dtrue&map=fail%3Dfalse&limit=0',
      { key },
    );
    expect(raw.status).toBe(200);
    expect(raw.body.categorical.kappa.value).toBe(1);
    expect(raw.body.disagreements).toEqual({ total: 0, listed: [] });
  });

  it('refuses sides it cannot read, a bad mapping and keys that may not read', async () => {
    const missing = await refusal(reader.agreement({ a: 'politeness@9:polite', b: 'reviewers' }));
    expect([missing.status, missing.body.type, missing.body.id]).toEqual([
      404,
      'not_found',
      'politeness@9',
    ]);
    const unreadable = await refusal(reader.agreement({ a: 'everyone', b: 'reviewers' }));
    expect([unreadable.status, unreadable.body.type]).toEqual([422, 'validation_failed']);
    const mapping = await refusal(
      reader.agreement({ a: 'politeness@2:polite', b: 'reviewers', mapping: { pass: '' } }),
    );
    expect(mapping.body.message).toBe('a mapping is FROM=TO, such as pass=true, not "pass="');
    const user = await h.call('GET', '/v1/agreement?a=reviewers&b=users', {
      key: await h.key('user:ada'),
    });
    expect(user.status).toBe(403);
    const window = await h.call(
      'GET',
      '/v1/agreement?a=politeness%402&b=reviewers&from=yesterday',
      {
        key: await h.key('system'),
      },
    );
    expect(window.status).toBe(422);
  });
});

describe('POST /v1/review-queues/{queueId}/disagreements', () => {
  it('sends every disagreeing target to the queue in one call, each once', async () => {
    const system = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('system') });
    const request = { a: 'politeness@1:polite', b: 'reviewers', targetKind: 'message' } as const;
    const sent = await system.queueDisagreements('second-look', request);
    expect(sent).toMatchObject({
      queueId: 'second-look',
      disagreements: 3,
      added: 3,
      alreadyQueued: 0,
    });
    expect(await system.queueDisagreements('second-look', request)).toMatchObject({
      added: 0,
      alreadyQueued: 3,
    });
    const queue = await system.reviewQueues.get('second-look');
    expect(queue.progress.items).toBe(3);
  });

  it('refuses a queue that does not take a disagreeing kind, and keys that may not fill queues', async () => {
    const system = new EvalflowClient({ baseUrl: h.url, apiKey: await h.key('system') });
    const kinds = await refusal(
      system.queueDisagreements('second-look', { a: 'politeness@2:polite', b: 'reviewers' }),
    );
    expect([kinds.status, kinds.body.message]).toEqual([
      422,
      'review queue second-look takes message targets, and the sides also disagree on turn targets: compare one kind (targetKind)',
    ]);
    const missing = await refusal(
      system.queueDisagreements('nowhere', { a: 'politeness@2:polite', b: 'reviewers' }),
    );
    expect(missing.status).toBe(404);
    const reviewer = await refusal(
      reader.queueDisagreements('second-look', { a: 'politeness@2:polite', b: 'reviewers' }),
    );
    expect(reviewer.status).toBe(403);
  });
});

describe('POST /v1/evaluation-rules/{evaluator}/promote', () => {
  const request = {
    replacing: 'politeness@1',
    against: 'reviewers',
    field: 'polite',
    targetKind: 'message',
    minKappa: 0.6,
    minMatched: 50,
  } as const;

  it('refuses short evidence with a 409 that carries the figures, changing no rule', async () => {
    const short = await refusal(admin.evaluationRules.promote('politeness@2', request));
    expect(short.status).toBe(409);
    expect(short.body).toMatchObject({
      type: 'invalid_state',
      message: expect.stringContaining('the evidence is short (10 matched targets, fewer than 50)'),
      evidence: { compared: 'politeness@2:polite', matched: 10, replaced: { matched: 9 } },
    });
    const rules = await admin.evaluationRules.list();
    expect(rules.rules.map((r) => [r.evaluator, r.mode, r.origin])).toEqual([
      ['politeness@1', 'live', 'config'],
      ['politeness@2', 'shadow', 'config'],
    ]);
  });

  it('is an admin’s alone, and refuses thresholds that cannot be', async () => {
    const reviewer = await refusal(reader.evaluationRules.promote('politeness@2', request));
    expect(reviewer.status).toBe(403);
    const bad = await refusal(
      admin.evaluationRules.promote('politeness@2', { ...request, minKappa: 2 }),
    );
    expect(bad.status).toBe(422);
  });

  it('switches the rules in one event with the evidence when it meets the thresholds', async () => {
    const promoted = await admin.evaluationRules.promote('politeness@2', {
      ...request,
      minMatched: 10,
    });
    expect(promoted).toMatchObject({
      evaluator: 'politeness@2',
      replacing: 'politeness@1',
      forced: false,
      shortfalls: [],
      evidence: { matched: 10, against: 'reviewers:politeness.polite' },
    });
    const rules = await admin.evaluationRules.list();
    expect(rules.rules.map((r) => [r.evaluator, r.mode, r.enabled, r.origin, r.setBy])).toEqual([
      ['politeness@1', 'live', false, 'workspace', 'system:admin'],
      ['politeness@2', 'live', true, 'workspace', 'system:admin'],
    ]);
    const events = await h.engine.store.events({
      workspace_id: ws,
      after: (promoted.seq ?? 1) - 1,
    });
    expect(events[0]?.event).toMatchObject({ type: 'evaluator_promoted', forced: false });
  });

  it('records a forced promotion as forced', async () => {
    const forced = await admin.evaluationRules.promote('politeness@1', {
      ...request,
      replacing: 'politeness@2',
      force: true,
    });
    expect(forced.forced).toBe(true);
    expect(forced.shortfalls).toEqual([
      '9 matched targets, fewer than 50',
      expect.stringMatching(/^κ 0\.308 is below 0\.6$/),
    ]);
  });
});

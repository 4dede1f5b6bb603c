import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { issueCredential } from '../../src/api/index.js';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { answerLengthEvaluator } from '../../src/evaluators/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { devServerEnvironment } from '../support/temporal.js';

// The isolation matrix over every route in the API's own OpenAPI document: no key, a revoked
// key, an expired user token, an evaluator key, a user token, and another workspace's key. Each
// is refused with its documented status, and the workspace's log is unchanged.

const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean() }),
});
const app = defineConfig({ feedbackTypes: [helpfulness], evaluators: [answerLengthEvaluator()] });

let env: TestWorkflowEnvironment;
let h: ApiHarness;
beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, app);
});
afterAll(async () => {
  await h?.close();
  await env?.teardown();
});

/** A concrete path for a templated one, naming entities that exist in workspace `ws`. */
const concrete = (path: string) =>
  path
    .replace('{threadId}', 't')
    .replace('{runId}', 'r')
    .replace('{messageId}', 'a')
    .replace('{artifactId}', 'doc')
    .replace('{evaluator}', 'answer_length@1')
    .replace('{configId}', 'helpfulness.helpful')
    .replace('{id}', 'batch');

// What a user token and an evaluator key may do; everything else refuses them.
const userRoutes = new Set([
  'PUT /v1/threads/{threadId}/messages/{messageId}/rating',
  'DELETE /v1/threads/{threadId}/messages/{messageId}/rating',
  'GET /v1/threads/{threadId}/conversation',
]);
const evaluatorRoutes = new Set(['POST /v1/feedback']);
// Routes that name an entity of the workspace: another workspace's key must not find it.
const entityReads = [
  'GET /v1/threads/{threadId}/conversation',
  'GET /v1/runs/{runId}',
  'POST /v1/runs/{runId}/end',
  'POST /v1/runs/{runId}/pause',
  'POST /v1/artifacts/{artifactId}/archive',
];

describe('every route refuses the wrong caller and changes nothing', () => {
  it('answers 401, 403 or 404 as documented, for every route and every wrong credential', async () => {
    const system = await h.key('system');
    const agent = await h.key('agent');
    await h.call('POST', '/v1/threads', { key: agent, body: { threadId: 't' } });
    await h.call('POST', '/v1/threads/t/runs', { key: agent, body: { runId: 'r' } });
    await h.call('POST', '/v1/threads/t/messages', {
      key: agent,
      body: { messageId: 'a', role: 'ROLE_ASSISTANT', content: 'hi', runId: 'r' },
    });
    await h.call('PUT', '/v1/artifacts/doc', { key: system, body: { kind: 'report' } });

    const revoked = await h.key('system');
    await h.engine.store.apiKeys.revoke(revoked.split('_')[1] as string);
    const expired = await issueCredential(h.engine.store, {
      kind: 'user_token',
      workspaceId: 'ws',
      principal: { kind: 'user', id: 'late' },
      expiresAt: new Date(Date.now() - 1000),
    });
    const token = (await h.call('POST', '/v1/user-tokens', { key: system, body: { userId: 'u' } }))
      .body.token;
    const judge = await h.key('evaluator:answer_length@1');
    const stranger = await h.key('system', 'another-workspace');

    const document = (await h.call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(
          ([, operation]) =>
            !(Array.isArray(operation.security) && operation.security.length === 0),
        )
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
    expect(operations.length).toBeGreaterThan(25);
    const head = await h.engine.store.head('ws');
    let attempts = 0;
    const breaches: string[] = [];
    const expectStatus = async (label: string, key: string | undefined, status: number) => {
      for (const { method, path } of operations) {
        const route = `${method} ${path}`;
        if (label === 'user token' && userRoutes.has(route)) continue;
        if (label === 'evaluator key' && evaluatorRoutes.has(route)) continue;
        attempts += 1;
        const reply = await h.call(method, concrete(path), {
          ...(key ? { key } : {}),
          ...(['POST', 'PUT', 'PATCH'].includes(method) ? { body: {} } : {}),
        });
        if (reply.status !== status) breaches.push(`${label}: ${route} answered ${reply.status}`);
      }
    };
    await expectStatus('no key', undefined, 401);
    await expectStatus('revoked key', revoked, 401);
    await expectStatus('expired user token', expired.key, 401);
    await expectStatus('evaluator key', judge, 403);
    await expectStatus('user token', token, 403);
    for (const route of entityReads) {
      const [method, path] = route.split(' ') as [string, string];
      attempts += 1;
      const reply = await h.call(method, concrete(path), {
        key: stranger,
        ...(method === 'POST'
          ? { body: path.endsWith('/end') ? { status: 'completed' } : {} }
          : {}),
      });
      if (reply.status !== 404)
        breaches.push(`another workspace: ${route} answered ${reply.status}`);
    }
    expect(breaches).toEqual([]);
    expect(attempts).toBeGreaterThan(100);
    // Nothing the refused requests sent was stored.
    expect(await h.engine.store.head('ws')).toBe(head);
  });
});

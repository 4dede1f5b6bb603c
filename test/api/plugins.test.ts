import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpRefusal } from '../../src/api/errors.js';
import { issueCredential } from '../../src/api/index.js';
import { authentication, callerOf } from '../../src/api/plugins/authentication.js';
import { errorAnswers } from '../../src/api/plugins/errors.js';
import { idempotency } from '../../src/api/plugins/idempotency.js';
import { requestMetrics } from '../../src/api/plugins/metrics.js';
import { openApi, operationIdOf } from '../../src/api/plugins/openapi.js';
import { rateLimit } from '../../src/api/plugins/rate-limit.js';
import { defineConfig } from '../../src/config/index.js';
import type { HttpObserver } from '../../src/metrics/index.js';
import { openSqliteStore, type Store, StoreUnavailableError } from '../../src/store/index.js';

// Each of the API's plugins on a bare Fastify instance with a route or two of the test's own, on a
// real SQLite store: what each adds, apart from the rest of the API.

let store: Store;
let agentKey: string;
let userKey: string;
const now = () => new Date();

beforeEach(async () => {
  store = openSqliteStore(':memory:', defineConfig({}));
  const issue = async (principal: Parameters<typeof issueCredential>[1]['principal']) =>
    (await issueCredential(store, { kind: 'key', workspaceId: 'ws', principal })).key;
  agentKey = await issue({ kind: 'agent' });
  userKey = await issue({ kind: 'user', id: 'ada' });
});
afterEach(() => store.close());

async function bare() {
  const api = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(serializerCompiler);
  return api;
}
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('authentication', () => {
  async function withRoutes() {
    const api = await bare();
    await api.register(authentication, { store, now });
    await api.register(errorAnswers);
    api.get('/who', { config: { allow: ['agent'] } }, async (request) => ({
      principal: callerOf(request).principal.kind,
      workspace: callerOf(request).workspaceId,
    }));
    api.get('/open', { config: { public: true } }, async (request) => ({
      caller: request.caller,
    }));
    return api;
  }

  it('names the verified caller of a request with a valid key', async () => {
    const api = await withRoutes();
    const reply = await api.inject({ url: '/who', headers: bearer(agentKey) });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ principal: 'agent', workspace: 'ws' });
    expect(reply.headers['x-request-id']).toBeTypeOf('string');
  });

  it('answers 401 without a bearer header, and for a key it does not know', async () => {
    const api = await withRoutes();
    const none = await api.inject({ url: '/who' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      type: 'unauthenticated',
      message: 'send Authorization: Bearer <key>',
    });
    const unknown = await api.inject({
      url: '/who',
      headers: bearer(`efk_${'0'.repeat(32)}_${'a'.repeat(32)}`),
    });
    expect(unknown.statusCode).toBe(401);
  });

  it('answers 403 to a principal the route does not allow', async () => {
    const reply = await (await withRoutes()).inject({ url: '/who', headers: bearer(userKey) });
    expect(reply.statusCode).toBe(403);
    expect(reply.json()).toEqual({ type: 'forbidden', message: 'a user key cannot GET /who' });
  });

  it('lets anyone call a public route, with no caller', async () => {
    const reply = await (await withRoutes()).inject({ url: '/open' });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toEqual({ caller: null });
  });
});

describe('rate limit', () => {
  it('refuses a key past its requests a minute with 429 and Retry-After; public routes are free', async () => {
    const api = await bare();
    await api.register(authentication, { store, now });
    await api.register(rateLimit, { perMinute: 2 });
    await api.register(errorAnswers);
    api.get('/x', async () => ({ ok: true }));
    api.get('/open', { config: { public: true } }, async () => ({ ok: true }));
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      statuses.push((await api.inject({ url: '/x', headers: bearer(agentKey) })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await api.inject({ url: '/x', headers: bearer(agentKey) });
    expect(limited.json()).toMatchObject({ type: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another key has a budget of its own; a public route counts against none.
    expect((await api.inject({ url: '/x', headers: bearer(userKey) })).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await api.inject({ url: '/open' })).statusCode).toBe(200);
  });
});

describe('idempotency', () => {
  async function counting() {
    const api = await bare();
    await api.register(authentication, { store, now });
    await api.register(idempotency, { store });
    await api.register(errorAnswers);
    let calls = 0;
    api.post('/count', async (request) => ({ calls: ++calls, commandId: request.commandId }));
    api.post('/fail', async () => {
      calls++;
      throw new Error('boom');
    });
    return { api, calls: () => calls };
  }
  const post = (url: string, key: string, body: unknown = { a: 1 }) => ({
    method: 'POST' as const,
    url,
    headers: { ...bearer(agentKey), 'idempotency-key': key },
    payload: body as Record<string, unknown>,
  });

  it('answers a replay with the first response and runs the handler once', async () => {
    const { api, calls } = await counting();
    const first = await api.inject(post('/count', 'k1'));
    const again = await api.inject(post('/count', 'k1'));
    expect(first.json()).toEqual({ calls: 1, commandId: expect.stringMatching(/^http:.+:k1$/) });
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(calls()).toBe(1);
  });

  it('refuses the same key with another body as a conflict, and a malformed key as 400', async () => {
    const { api, calls } = await counting();
    await api.inject(post('/count', 'k2'));
    const other = await api.inject(post('/count', 'k2', { a: 2 }));
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ type: 'conflict' });
    const bad = await api.inject(post('/count', 'has space'));
    expect(bad.statusCode).toBe(400);
    expect(calls()).toBe(1);
  });

  it('keeps no server fault: the retry does the work', async () => {
    const { api, calls } = await counting();
    expect((await api.inject(post('/fail', 'k3'))).statusCode).toBe(500);
    expect((await api.inject(post('/fail', 'k3'))).statusCode).toBe(500);
    expect(calls()).toBe(2);
  });
});

describe('error answers', () => {
  async function failing() {
    const api = await bare();
    await api.register(errorAnswers);
    api.get('/refused', async () => {
      throw new HttpRefusal(409, { type: 'invalid_state', message: 'not now' });
    });
    api.get('/down', async () => {
      throw new StoreUnavailableError('Postgres at db:5432 is unavailable', 'db:5432');
    });
    api.get('/bug', async () => {
      throw new Error('a secret detail');
    });
    api.post('/typed', { schema: { body: z.strictObject({ n: z.int() }) } }, async () => ({}));
    return api;
  }

  it('sends a refusal as its status and body', async () => {
    const reply = await (await failing()).inject({ url: '/refused' });
    expect(reply.statusCode).toBe(409);
    expect(reply.json()).toEqual({ type: 'invalid_state', message: 'not now' });
  });

  it('answers a body its schema refuses with 422 and the issues', async () => {
    const reply = await (await failing()).inject({
      method: 'POST',
      url: '/typed',
      payload: { n: 'x' },
    });
    expect(reply.statusCode).toBe(422);
    expect(reply.json()).toMatchObject({ type: 'validation_failed', errors: [expect.anything()] });
  });

  it('answers 503 with Retry-After when the store is down, and 500 without detail otherwise', async () => {
    const api = await failing();
    const down = await api.inject({ url: '/down' });
    expect(down.statusCode).toBe(503);
    expect(down.headers['retry-after']).toBe('1');
    const bug = await api.inject({ url: '/bug' });
    expect(bug.statusCode).toBe(500);
    expect(bug.json()).toEqual({ type: 'internal', message: 'internal error' });
  });

  it('answers an unknown route with a not_found body naming it', async () => {
    const reply = await (await failing()).inject({ url: '/nowhere' });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toEqual({
      type: 'not_found',
      entity: 'route',
      id: '/nowhere',
      message: 'no route GET /nowhere',
    });
  });
});

describe('request metrics', () => {
  it('tells each answer by its route pattern, never the URL, with its status and time', async () => {
    const answered: Parameters<HttpObserver['answered']>[] = [];
    const api = await bare();
    await api.register(requestMetrics, {
      observer: { answered: (...args) => answered.push(args) },
    });
    await api.register(errorAnswers);
    api.get('/threads/:threadId', async (request) => {
      const { threadId } = request.params as { threadId: string };
      if (threadId === 'gone')
        throw new HttpRefusal(404, { type: 'not_found', message: 'no such thread' });
      return { threadId };
    });
    expect((await api.inject({ url: '/threads/t-1?x=1' })).statusCode).toBe(200);
    expect((await api.inject({ url: '/threads/gone' })).statusCode).toBe(404);
    expect((await api.inject({ method: 'POST', url: '/no/such/7' })).statusCode).toBe(404);
    expect(answered.map(([method, route, status]) => [method, route, status])).toEqual([
      ['GET', '/threads/:threadId', 200],
      ['GET', '/threads/:threadId', 404],
      ['POST', 'unmatched', 404],
    ]);
    for (const [, , , seconds] of answered) {
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThan(5);
    }
  });
});

describe('OpenAPI', () => {
  it('names each operation after its method and path', () => {
    expect(operationIdOf('POST', '/v1/threads/:threadId/runs')).toBe('postThreadsThreadIdRuns');
    expect(operationIdOf('GET', '/v1/score-configs')).toBe('getScoreConfigs');
  });

  it('documents the routes registered after it, with their operation ids', async () => {
    const api = await bare();
    await api.register(openApi);
    api.get(
      '/v1/things/:thingId',
      { schema: { params: z.object({ thingId: z.string() }) } },
      async () => ({}),
    );
    await api.ready();
    const document = api.swagger() as { paths: Record<string, { get: { operationId: string } }> };
    expect(document.paths['/v1/things/{thingId}']?.get.operationId).toBe('getThingsThingId');
  });
});

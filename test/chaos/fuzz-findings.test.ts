import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, buildApi, issueCredential } from '../../src/api/index.js';
import { defineConfig } from '../../src/config/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';

// What fuzzing the API (bench/chaos/fuzz.ts) found, pinned: each answer is a documented refusal
// with the API's own body, and changes nothing.

const app = defineConfig({});
let store: Store;
let api: Api;
let key: string;
beforeAll(async () => {
  store = openSqliteStore(':memory:', app);
  api = await buildApi({
    store,
    app,
    temporal: { client: {} as never, taskQueue: 'fuzz-findings' },
    scoreConfigs: new InMemoryScoreConfigStore(),
    logger: false,
  });
  key = (
    await issueCredential(store, { kind: 'key', workspaceId: 'ws', principal: { kind: 'system' } })
  ).key;
});
afterAll(async () => {
  await api?.close();
  await store?.close();
});

describe('paths the router itself refuses', () => {
  it.each([
    ['a path parameter over the router limit', `/v1/evaluation-rules/${'0'.repeat(300)}`],
    ['a path parameter that is not valid percent-encoding', '/v1/evaluation-rules/%E0%A4%A'],
  ])('answers %s with 400 bad_request, the documented body, and stores nothing', async (_, url) => {
    const reply = await api.inject({
      method: 'PUT',
      url,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: { enabled: true },
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.json()).toEqual({ type: 'bad_request', message: expect.any(String) });
    expect(reply.headers['x-request-id']).toEqual(expect.any(String));
    expect(await store.workspaces()).toEqual([]);
  });
});

describe('the event streams, as documented', () => {
  it('documents their refusals as JSON and only the stream as text/event-stream', async () => {
    const document = (await api.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { get: { responses: Record<string, { content: object }> } }>;
    };
    for (const path of ['/v1/events', '/v1/threads/{threadId}/events']) {
      const { responses } = (document.paths[path] as (typeof document.paths)[string]).get;
      expect(Object.keys(responses['200']?.content ?? {}), path).toEqual(['text/event-stream']);
      for (const status of ['400', '401', '403', '404', '422']) {
        expect(Object.keys(responses[status]?.content ?? {}), `${path} ${status}`).toEqual([
          'application/json',
        ]);
      }
    }
    const refused = await api.inject({ method: 'GET', url: '/v1/events' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, buildApi, issueCredential } from '../../src/api/index.js';
import { defineConfig } from '../../src/config/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';

// A body the API cannot read for its type, on a real server without Temporal (no route here
// reaches it): 415 with the API's body, and nothing stored.

const app = defineConfig({});
let store: Store;
let api: Api;
let url: string;
let key: string;
beforeAll(async () => {
  store = openSqliteStore(':memory:', app);
  api = await buildApi({
    store,
    app,
    temporal: { client: {} as never, taskQueue: 'media-types' },
    scoreConfigs: new InMemoryScoreConfigStore(),
    logger: false,
  });
  url = await api.listen({ host: '127.0.0.1', port: 0 });
  key = (
    await issueCredential(store, { kind: 'key', workspaceId: 'ws', principal: { kind: 'system' } })
  ).key;
});
afterAll(async () => {
  await api?.close();
  await store?.close();
});

describe('a POST whose body has no content type', () => {
  it('answers 415 unsupported_media_type, saying what to send, and stores nothing', async () => {
    const response = await fetch(`${url}/v1/threads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      // Bytes, so fetch adds no Content-Type of its own.
      body: new TextEncoder().encode(JSON.stringify({ threadId: 't1' })),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({
      type: 'unsupported_media_type',
      message: 'Unsupported Media Type: send the body as JSON, with Content-Type: application/json',
    });
    expect(await store.workspaces()).toEqual([]);
  });

  it('is documented on the routes that take a body', async () => {
    const document = (await (await fetch(`${url}/openapi.json`)).json()) as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    };
    expect(Object.keys(document.paths['/v1/threads']?.post?.responses ?? {})).toContain('415');
  });
});

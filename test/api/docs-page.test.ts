import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, buildApi } from '../../src/api/index.js';
import { defineConfig } from '../../src/config/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';

// The reference page and its document over real HTTP: @fastify/swagger-ui serves the page's
// files through @fastify/static (content-disposition), and inject builds requests with
// light-my-request (cookie). package.json's overrides pin both leaves to versions that load on
// every Node `engines` names, so these pin that the parts still work together.

const app = defineConfig({});
let store: Store;
let api: Api;
let url: string;
beforeAll(async () => {
  store = openSqliteStore(':memory:', app);
  api = await buildApi({
    store,
    app,
    temporal: { client: {} as never, taskQueue: 'docs-page' },
    scoreConfigs: new InMemoryScoreConfigStore(),
    logger: false,
  });
  url = await api.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await api?.close();
  await store?.close();
});

describe('GET /docs', () => {
  it('serves the reference page and its static files without a key', async () => {
    const page = await fetch(`${url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('swagger-ui');
    const style = await fetch(`${url}/docs/static/swagger-ui.css`);
    expect(style.status).toBe(200);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    expect((await style.text()).length).toBeGreaterThan(1000);
  });

  it('serves the same OpenAPI 3.1 document at /docs/json and /openapi.json', async () => {
    const fromPage = (await (await fetch(`${url}/docs/json`)).json()) as Record<string, unknown>;
    const served = (await (await fetch(`${url}/openapi.json`)).json()) as Record<string, unknown>;
    expect(fromPage.openapi).toBe('3.1.0');
    expect(Object.keys(fromPage.paths as object)).toContain('/v1/threads');
    expect(served).toEqual(fromPage);
  });
});

describe("Fastify's inject", () => {
  it('sends the cookies it is given', async () => {
    const echo = Fastify();
    echo.get('/', async (request) => ({ cookie: request.headers.cookie }));
    const reply = await echo.inject({ url: '/', cookies: { a: 'b c', d: 'e' } });
    expect(reply.json()).toEqual({ cookie: 'a=b%20c; d=e' });
    await echo.close();
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authentication } from '../../src/api/plugins/authentication.js';
import { errorAnswers } from '../../src/api/plugins/errors.js';
import { openApi } from '../../src/api/plugins/openapi.js';
import { rateLimit } from '../../src/api/plugins/rate-limit.js';
import {
  UI_CONTENT_SECURITY_POLICY,
  uiBuildProblem,
  uiPage,
} from '../../src/api/plugins/ui-page.js';
import { defineConfig } from '../../src/config/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';

// The page's plugin on a bare Fastify instance behind the API's authentication, with a built
// page of the test's own (an index and a hashed asset): what it serves, with which headers, and
// what it refuses. The real build is served to a real browser in test/ui/*.temporal.test.ts.

let store: Store;
let root: string;
const now = () => new Date();

beforeEach(() => {
  store = openSqliteStore(':memory:', defineConfig({}));
  root = mkdtempSync(join(tmpdir(), 'evalflow-ui-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(
    join(root, 'index.html'),
    '<!doctype html><script type="module" src="/ui/assets/index-abc123.js"></script>',
  );
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log("page")');
  writeFileSync(join(root, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(root, '.secret'), 'not for anyone');
});
afterEach(async () => {
  await store.close();
  rmSync(root, { recursive: true, force: true });
});

async function withPage(pageRoot = root) {
  const api = Fastify({ logger: false }).withTypeProvider<ZodTypeProvider>();
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(serializerCompiler);
  await api.register(openApi);
  await api.register(authentication, { store, now });
  await api.register(rateLimit, { perMinute: 2 });
  await api.register(errorAnswers);
  await api.register(uiPage, { root: pageRoot });
  api.get('/v1/private', async () => ({ ok: true }));
  return api;
}

describe("the reviewers' page", () => {
  it('serves its index at /ui/ to anyone, with a strict Content-Security-Policy and nosniff', async () => {
    const api = await withPage();
    const reply = await api.inject({ url: '/ui/' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.body).toContain('/ui/assets/index-abc123.js');
    expect(reply.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['x-frame-options']).toBe('DENY');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.headers['cache-control']).toBe('no-cache');
    // Other routes still want a key: the page's routes are public, nothing else is.
    expect((await api.inject({ url: '/v1/private' })).statusCode).toBe(401);
  });

  it('takes scripts and styles from its own origin only, with no inline script and no framing', () => {
    const directives = new Map(
      UI_CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(UI_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe|data:|https?:|\*/);
  });

  it('redirects /ui to /ui/, so the page resolves its assets under /ui/', async () => {
    const reply = await (await withPage()).inject({ url: '/ui' });
    expect(reply.statusCode).toBe(301);
    expect(reply.headers.location).toBe('/ui/');
  });

  it('serves hashed assets with their type, cached for good, with the same headers', async () => {
    const api = await withPage();
    const script = await api.inject({ url: '/ui/assets/index-abc123.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
    const style = await api.inject({ url: '/ui/assets/index-abc123.css' });
    expect(style.headers['content-type']).toMatch(/^text\/css/);
  });

  it('is not rate limited: loading the page costs no key its budget', async () => {
    const api = await withPage();
    for (let i = 0; i < 5; i++) expect((await api.inject({ url: '/ui/' })).statusCode).toBe(200);
  });

  it('answers 404 for a file it does not have, and never a listing, a dotfile or a path outside', async () => {
    const api = await withPage();
    const missing = await api.inject({ url: '/ui/assets/nothing.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ type: 'not_found' });
    expect((await api.inject({ url: '/ui/assets/' })).statusCode).toBe(404);
    expect((await api.inject({ url: '/ui/.secret' })).body).not.toContain('not for anyone');
    for (const url of ['/ui/../package.json', '/ui/%2e%2e/package.json', '/ui/..%2fpackage.json']) {
      const outside = await api.inject({ url });
      expect(outside.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(outside.body, url).not.toContain('"name"');
    }
  });

  it('keeps its routes out of the OpenAPI document', async () => {
    const api = await withPage();
    await api.ready();
    const paths = Object.keys((api.swagger() as { paths: Record<string, unknown> }).paths);
    expect(paths).toContain('/v1/private');
    expect(paths.filter((path) => path.startsWith('/ui'))).toEqual([]);
  });

  it('answers 503 naming the build command when the page is not built, not a blank page', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'evalflow-ui-unbuilt-'));
    try {
      expect(uiBuildProblem(empty)).toContain('npm run build:ui');
      const api = await withPage(empty);
      for (const url of ['/ui', '/ui/', '/ui/assets/index-abc123.js']) {
        const reply = await api.inject({ url });
        expect(reply.statusCode, url).toBe(503);
        expect(reply.json()).toEqual({
          type: 'unavailable',
          message: uiBuildProblem(empty),
        });
        expect(reply.headers['content-security-policy']).toBe(UI_CONTENT_SECURITY_POLICY);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { type Api, buildApi, issueCredential } from '../../src/api/index.js';
import { defineConfig } from '../../src/config/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';

// The API's logs and its per-key rate limit, on a real server without Temporal (no route here
// reaches it).

let api: Api | undefined;
let store: Store | undefined;
afterEach(async () => {
  await api?.close();
  await store?.close();
});

async function serve(
  options: { rateLimitPerMinute?: number; logs?: PassThrough; format?: 'text' | 'json' } = {},
) {
  const app = defineConfig({});
  store = openSqliteStore(':memory:', app);
  api = await buildApi({
    store,
    app,
    temporal: { client: {} as never, taskQueue: 'unused' },
    scoreConfigs: new InMemoryScoreConfigStore(),
    logger: options.logs ? { stream: options.logs, format: options.format ?? 'json' } : false,
    ...(options.rateLimitPerMinute ? { rateLimitPerMinute: options.rateLimitPerMinute } : {}),
  });
  const url = await api.listen({ host: '127.0.0.1', port: 0 });
  const { key } = await issueCredential(store, {
    kind: 'key',
    workspaceId: 'ws',
    principal: { kind: 'system' },
  });
  const post = (threadId: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/v1/threads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ threadId }),
    });
  return { key, post, url };
}

/**
 * What the API writes to `logs`. `until` resolves once the text passes `done`, rechecked as each
 * chunk arrives: a request's line is written once its response has gone, after the client has it.
 */
function collect(logs: PassThrough) {
  let text = '';
  const checks = new Set<() => void>();
  logs.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (const check of [...checks]) check();
  });
  return {
    until: (done: (text: string) => boolean) =>
      new Promise<string>((resolve) => {
        const check = () => {
          if (!done(text)) return;
          checks.delete(check);
          resolve(text);
        };
        checks.add(check);
        check();
      }),
  };
}
const lineCount = (text: string) => text.split('\n').filter((line) => line !== '').length;

describe('the API', () => {
  it('logs each request as JSON with its request id, and never the key', async () => {
    const logs = new PassThrough();
    const written = collect(logs);
    const { key, post } = await serve({ logs });
    const response = await post('t1', {
      'x-request-id': 'req-42',
      'idempotency-key': 'secret-ish',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('req-42');
    // Not given: one the server makes, different for each request.
    const ids = [
      (await post('t2')).headers.get('x-request-id'),
      (await post('t3')).headers.get('x-request-id'),
    ];
    expect(ids[0]).toMatch(/^[0-9a-f]{12}-[0-9a-z]+$/);
    expect(ids[1]).not.toBe(ids[0]);
    // One line per answered request, the three of them.
    const answered = (line: string) => line.includes('"res":{"statusCode"');
    const text = await written.until((t) => t.split('\n').filter(answered).length === 3);
    const lines = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(
      lines.some(
        (line) =>
          line.reqId === 'req-42' && (line.res as { statusCode?: number })?.statusCode === 201,
      ),
    ).toBe(true);
    expect(text).not.toContain(key);
    expect(text).not.toContain(key.slice('efk_'.length + 33)); // the secret, after the id
  });

  it('logs each answered request as one readable line in the text format, and never the key', async () => {
    const logs = new PassThrough();
    const written = collect(logs);
    const { key, post, url } = await serve({ logs, format: 'text' });
    await post('t1');
    await post('t1');
    await fetch(`${url}/v1/threads`, { method: 'POST' });
    const text = await written.until((t) => lineCount(t) >= 3);
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d POST \/v1\/threads 201 \d+ ms$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d POST \/v1\/threads 409 \d+ ms$/);
    expect(lines[2]).toMatch(/ POST \/v1\/threads 401 \d+ ms$/);
    expect(text).not.toContain(key);
  });

  it('answers 429 with Retry-After past the per-key rate limit, and records nothing more', async () => {
    const { post } = await serve({ rateLimitPerMinute: 3 });
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await post(`t${i}`));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 429, 429]);
    // The limit's headers come with the 429 only.
    expect(answers[0]?.headers.get('x-ratelimit-limit')).toBeNull();
    expect(answers[0]?.headers.get('x-ratelimit-remaining')).toBeNull();
    const limited = await post('t9');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await limited.json()).toMatchObject({ type: 'rate_limited' });
    expect(await store?.head('ws')).toBe(3);
  });

  it('ends open event streams when it closes, so a stop is not held by a connected client', async () => {
    const { key, url } = await serve();
    const response = await fetch(`${url}/v1/events`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the stream's opening comment: it is open
    const closing = Date.now();
    await api?.close();
    api = undefined;
    expect(Date.now() - closing).toBeLessThan(2000);
    let ended = false;
    for (let i = 0; i < 10 && !ended; i++) ended = (await reader.read()).done;
    expect(ended).toBe(true);
  });
});

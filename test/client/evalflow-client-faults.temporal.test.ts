import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EvalflowApiError,
  EvalflowClient,
  type EvalflowClientOptions,
  EvalflowNetworkError,
} from '../../src/client/index.js';
import type { Envelope } from '../../src/core/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { clientTestApp } from '../support/client-app.js';
import { type FaultProxy, type SeenRequest, startFaultProxy } from '../support/fault-proxy.js';
import { devServerEnvironment } from '../support/temporal.js';

// EvalflowClient through a proxy that fails on cue, in front of the real API: what it retries,
// how long it waits, that a write keeps one Idempotency-Key across its retries and is recorded
// once, and that an event stream cut mid-way resumes from the last event.

let env: TestWorkflowEnvironment;
let h: ApiHarness;
let proxy: FaultProxy;

beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, clientTestApp);
  proxy = await startFaultProxy(h.url);
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
  await env?.teardown();
});

/** A client through the proxy, in its own workspace, with short backoff delays. */
async function through(workspace: string, options: Partial<EvalflowClientOptions> = {}) {
  return new EvalflowClient({
    baseUrl: proxy.url,
    apiKey: await h.key('system', workspace),
    ...options,
    retry: { initialDelayMs: 20, maxDelayMs: 100, ...options.retry },
  });
}

const posts = (path: string) => (r: SeenRequest) => r.method === 'POST' && r.url === path;
const seenFor = (path: string, since: number) =>
  proxy.requests.slice(since).filter((r) => r.url.split('?')[0] === path);
const threadEvents = (workspace: string, thread: string) =>
  h.engine.store.events({ workspace_id: workspace, thread_id: thread });

describe('EvalflowClient through a failing proxy', () => {
  it('retries a 503 and a 429 after their Retry-After (seconds, then an HTTP date), with one Idempotency-Key, recording once', async () => {
    const client = await through('ws-retry');
    const since = proxy.requests.length;
    proxy.inject({ kind: 'status', status: 503, retryAfter: '1' }, { match: posts('/v1/threads') });
    // Whole seconds: the date is between two and three seconds away.
    const until = new Date(Date.now() + 3000).toUTCString();
    proxy.inject(
      { kind: 'status', status: 429, retryAfter: until },
      { match: posts('/v1/threads') },
    );
    const created = await client.createThread({ threadId: 't-retry' });

    const attempts = seenFor('/v1/threads', since);
    expect(attempts.map((r) => r.fault)).toEqual(['status', 'status', null]);
    const keys = attempts.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toEqual(expect.any(String));
    expect(new Set(keys).size).toBe(1);
    const [first, second, third] = attempts.map((r) => r.at) as [number, number, number];
    expect(second - first).toBeGreaterThanOrEqual(1000);
    expect(second - first).toBeLessThan(1500);
    expect(third).toBeGreaterThanOrEqual(Date.parse(until));
    expect(third - Date.parse(until)).toBeLessThan(500);
    const recorded = await threadEvents('ws-retry', 't-retry');
    expect(recorded.map((e) => e.id)).toEqual(created.eventIds);
  });

  it('answers a write whose answer was lost with the first answer, on its retry, and records it once', async () => {
    const client = await through('ws-lost');
    const since = proxy.requests.length;
    // The API records the thread, then the connection drops before its answer arrives.
    proxy.inject({ kind: 'drop', afterUpstream: true }, { match: posts('/v1/threads') });
    const created = await client.createThread({ threadId: 't-lost' });
    // The API records the message, then a gateway answers 502 in its place.
    proxy.inject(
      { kind: 'status', status: 502, afterUpstream: true },
      { match: posts('/v1/threads/t-lost/messages') },
    );
    const posted = await client.postMessage('t-lost', { role: 'ROLE_USER', content: 'hello' });

    for (const path of ['/v1/threads', '/v1/threads/t-lost/messages']) {
      const attempts = seenFor(path, since);
      expect(attempts.map((r) => r.fault)).toEqual([
        path === '/v1/threads' ? 'drop' : 'status',
        null,
      ]);
      expect(attempts[0]?.headers['idempotency-key']).toBe(attempts[1]?.headers['idempotency-key']);
    }
    const recorded = await threadEvents('ws-lost', 't-lost');
    expect(recorded.map((e) => e.event.type)).toEqual(['thread_created', 'message_posted']);
    expect(recorded.map((e) => e.id)).toEqual([...created.eventIds, ...posted.eventIds]);
  });

  it('retries a read whose connection dropped', async () => {
    const client = await through('ws-read');
    await client.createThread({ threadId: 't-read' });
    const since = proxy.requests.length;
    proxy.inject({ kind: 'drop' }, { match: (r) => r.url === '/v1/threads/t-read/conversation' });
    expect(await client.conversation('t-read')).toEqual({ threadId: 't-read', messages: [] });
    expect(seenFor('/v1/threads/t-read/conversation', since).map((r) => r.fault)).toEqual([
      'drop',
      null,
    ]);
  });

  it('gives up after its last attempt: the refusal as an EvalflowApiError, no answer as an EvalflowNetworkError', async () => {
    const client = await through('ws-give-up', { retry: { maxAttempts: 3 } });
    let since = proxy.requests.length;
    proxy.inject({ kind: 'status', status: 503 }, { times: 3, match: posts('/v1/threads') });
    const unavailable = await client.createThread({ threadId: 't-never' }).catch((e) => e);
    expect(unavailable).toBeInstanceOf(EvalflowApiError);
    expect(unavailable).toMatchObject({ status: 503, type: 'unavailable' });
    expect(seenFor('/v1/threads', since)).toHaveLength(3);

    since = proxy.requests.length;
    proxy.inject({ kind: 'drop' }, { times: 3, match: posts('/v1/threads') });
    const unreachable = await client.createThread({ threadId: 't-never' }).catch((e) => e);
    expect(unreachable).toBeInstanceOf(EvalflowNetworkError);
    expect(unreachable).toMatchObject({ attempts: 3, request: 'POST /v1/threads' });
    expect(seenFor('/v1/threads', since)).toHaveLength(3);
    expect(await threadEvents('ws-give-up', 't-never')).toEqual([]);

    // A server that asks for longer than the client waits gets its refusal back at once.
    since = proxy.requests.length;
    proxy.inject(
      { kind: 'status', status: 429, retryAfter: '120' },
      { match: posts('/v1/threads') },
    );
    expect(await client.createThread({ threadId: 't-never' }).catch((e) => e)).toMatchObject({
      status: 429,
      type: 'rate_limited',
    });
    expect(seenFor('/v1/threads', since)).toHaveLength(1);
  });

  it("sends a caller's own Idempotency-Key: the same call again is replayed, another body with it is a conflict", async () => {
    const client = await through('ws-keys');
    const since = proxy.requests.length;
    const first = await client.createThread(
      { threadId: 't-key' },
      { idempotencyKey: 'create-t-key' },
    );
    const again = await client.createThread(
      { threadId: 't-key' },
      { idempotencyKey: 'create-t-key' },
    );
    expect(again).toEqual(first);
    expect(seenFor('/v1/threads', since).map((r) => r.headers['idempotency-key'])).toEqual([
      'create-t-key',
      'create-t-key',
    ]);
    expect(await threadEvents('ws-keys', 't-key')).toHaveLength(1);
    const other = await client
      .createThread({ threadId: 't-other' }, { idempotencyKey: 'create-t-key' })
      .catch((e) => e);
    expect(other).toBeInstanceOf(EvalflowApiError);
    expect(other).toMatchObject({ status: 409, type: 'conflict' });
  });

  it('resumes an event stream cut mid-way from the last event seen, sending Last-Event-ID', async () => {
    const client = await through('ws-sse');
    for (const threadId of ['s1', 's2', 's3', 's4', 's5']) await client.createThread({ threadId });
    const since = proxy.requests.length;
    const toEvents = (r: SeenRequest) => r.url.startsWith('/v1/events');
    proxy.inject({ kind: 'cut-stream', afterEvents: 2 }, { match: toEvents });
    proxy.inject({ kind: 'status', status: 503, retryAfter: '0' }, { match: toEvents });
    proxy.inject({ kind: 'cut-stream', afterEvents: 2 }, { match: toEvents });

    const stream = client.events();
    const seen: Envelope[] = [];
    for await (const envelope of stream) {
      seen.push(envelope);
      // A live event after the cuts: written once five were seen.
      if (seen.length === 5) await client.createThread({ threadId: 's6' });
      if (seen.length === 6) break;
    }
    expect(seen.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(seen.map((e) => e.event.type === 'thread_created' && e.event.thread_id)).toEqual([
      's1',
      's2',
      's3',
      's4',
      's5',
      's6',
    ]);
    const connections = seenFor('/v1/events', since);
    expect(connections.map((r) => [r.fault, r.headers['last-event-id'] ?? null])).toEqual([
      ['cut-stream', null],
      ['status', '2'],
      ['cut-stream', '2'],
      [null, '4'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { idFraction } from '../support/langfuse-server/index.js';
import { START, useLangfuseServer } from './langfuse-support.js';

const trace = '4bf92f3577b34da6a3ce929d0e0e4736';

function event(id: string, body: Record<string, unknown>, timestamp = '2026-09-29T10:00:00.000Z') {
  return { id, type: 'score-create', timestamp, body };
}

function scoreBody(id: string, overrides: Record<string, unknown> = {}) {
  return { id, traceId: trace, name: 'review.stars', value: 3, dataType: 'NUMERIC', ...overrides };
}

describe('the Langfuse test server', () => {
  const context = useLangfuseServer();

  async function call(method: string, path: string, body?: unknown, authorization?: string) {
    const { server } = context;
    const basic = Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64');
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: authorization ?? `Basic ${basic}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text ? JSON.parse(text) : undefined,
    };
  }

  it('refuses requests without the project keys', async () => {
    const answer = await call('GET', '/api/public/score-configs', undefined, 'Basic bm9wZQ==');
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ message: expect.stringContaining('Invalid credentials') });
  });

  it('answers a batch with an entry per event, refusing a malformed one alone', async () => {
    const answer = await call('POST', '/api/public/ingestion', {
      batch: [
        event('e1', scoreBody('s1')),
        event('e2', scoreBody('s2', { value: { nested: true } })),
        event('e3', scoreBody('s3', { dataType: 'BOOLEAN', value: 2 })),
        event('e4', scoreBody('s4', { sessionId: 'thread-1' })),
      ],
    });
    expect(answer.status).toBe(207);
    expect(answer.body.successes).toEqual([{ id: 'e1', status: 201 }]);
    expect(answer.body.errors.map((e: { id: string; status: number }) => [e.id, e.status])).toEqual(
      [
        ['e2', 400],
        ['e3', 400],
        ['e4', 400],
      ],
    );
    expect(JSON.stringify(answer.body.errors[2].error)).toContain(
      'exactly one of traceId, sessionId',
    );
    expect(context.server.scores().map((row) => row.id)).toEqual(['s1']);
  });

  it('refuses a body that is not a batch with a 400', async () => {
    expect((await call('POST', '/api/public/ingestion', { events: [] })).status).toBe(400);
  });

  it('reports an event without body.id a success and loses it, as Langfuse does', async () => {
    const { id: _, ...withoutId } = scoreBody('x');
    const answer = await call('POST', '/api/public/ingestion', { batch: [event('e1', withoutId)] });
    expect(answer.body.successes).toEqual([{ id: 'e1', status: 201 }]);
    expect(context.server.scores()).toEqual([]);
  });

  it('skips an event whose envelope id it has seen', async () => {
    await call('POST', '/api/public/ingestion', { batch: [event('e1', scoreBody('s1'))] });
    await call('POST', '/api/public/ingestion', {
      batch: [event('e1', scoreBody('s1', { value: 5 }))],
    });
    expect(context.server.scores().map((row) => row.value)).toEqual([3]);
  });

  it('replaces a row only when id, name and UTC date match, keeping the first timestamp and trace', async () => {
    const other = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    await call('POST', '/api/public/ingestion', {
      batch: [
        event('e1', scoreBody('s1')),
        event('e2', scoreBody('s1', { value: 4, traceId: other }), '2026-09-29T23:59:00.000+00:00'),
        event('e3', scoreBody('s1', { value: 5 }), '2026-09-30T00:00:01.000Z'),
        event('e4', scoreBody('s1', { value: 1, name: 'review.other' })),
      ],
    });
    expect(
      context.server.scores().map((row) => [row.name, row.value, row.timestamp, row.traceId]),
    ).toEqual([
      ['review.stars', 4, '2026-09-29T10:00:00.000Z', trace],
      ['review.stars', 5, '2026-09-30T00:00:01.000Z', trace],
      ['review.other', 1, '2026-09-29T10:00:00.000Z', trace],
    ]);
  });

  it('stamps POST /scores with its clock, so a re-post on a later day adds a row', async () => {
    const body = { id: 'p1', traceId: trace, name: 'review.stars', value: 3, dataType: 'NUMERIC' };
    expect(await call('POST', '/api/public/scores', body)).toMatchObject({
      status: 200,
      body: { id: 'p1' },
    });
    context.now += 24 * 3600 * 1000;
    await call('POST', '/api/public/scores', body);
    expect(context.server.scores().map((row) => row.timestamp)).toEqual([
      new Date(START).toISOString(),
      new Date(START + 24 * 3600 * 1000).toISOString(),
    ]);
  });

  it('refuses an EVAL source and a bad BOOLEAN on POST /scores with a 400', async () => {
    const body = { traceId: trace, name: 'n', value: 3, dataType: 'BOOLEAN' };
    expect((await call('POST', '/api/public/scores', body)).status).toBe(400);
    const evaluation = { ...body, value: 1, source: 'EVAL' };
    expect((await call('POST', '/api/public/scores', evaluation)).status).toBe(400);
  });

  it('shows writes only after the lag, on its own clock', async () => {
    context.server.setLag(10_000);
    await call('POST', '/api/public/ingestion', { batch: [event('e1', scoreBody('s1'))] });
    expect(context.server.scores()).toEqual([]);
    expect(context.server.pending()).toBe(1);
    context.now += 9_999;
    expect((await call('GET', '/api/public/v3/scores?id=s1')).body.data).toEqual([]);
    context.now += 1;
    expect((await call('GET', '/api/public/v3/scores?id=s1')).body.data).toHaveLength(1);
  });

  it('loses the same accepted scores every run for a drop fraction', async () => {
    context.server.setDrop(0.5);
    const ids = Array.from({ length: 40 }, (_, i) => `score-${i}`);
    const answer = await call('POST', '/api/public/ingestion', {
      batch: ids.map((id, i) => event(`e${i}`, scoreBody(id))),
    });
    expect(answer.body.errors).toEqual([]);
    const kept = context.server.scores().map((row) => row.id);
    expect(kept).toEqual(ids.filter((id) => idFraction(id) >= 0.5));
    expect(kept.length).toBeGreaterThan(5);
    expect(kept.length).toBeLessThan(35);
    expect(context.server.dropped()).toHaveLength(40 - kept.length);
  });

  it('loses accepted scores a predicate picks', async () => {
    context.server.setDrop((score) => score.value === 3);
    await call('POST', '/api/public/ingestion', {
      batch: [event('e1', scoreBody('a')), event('e2', scoreBody('b', { value: 4 }))],
    });
    expect(context.server.scores().map((row) => row.id)).toEqual(['b']);
  });

  it('answers deletes with 202 and applies them after the lag, except those it is told to ignore', async () => {
    context.server.setLag(1_000);
    await call('POST', '/api/public/ingestion', {
      batch: ['a', 'b'].map((id) => event(`e-${id}`, scoreBody(id))),
    });
    context.now += 1_000;
    context.server.setIgnoreDeletes((id) => id === 'b');
    for (const id of ['a', 'b']) {
      expect((await call('DELETE', `/api/public/scores/${id}`)).status).toBe(202);
    }
    expect(context.server.scores().map((row) => row.id)).toEqual(['a', 'b']);
    context.now += 1_000;
    expect(context.server.scores().map((row) => row.id)).toEqual(['b']);
    expect(context.server.ignoredDeletes()).toEqual(['b']);
    expect((await call('DELETE', '/api/public/scores/a')).status).toBe(404);
  });

  it('drops a score whose config is missing or of another data type, giving a linked one its config name', async () => {
    const config = await call('POST', '/api/public/score-configs', {
      name: 'Helpful',
      dataType: 'BOOLEAN',
    });
    const batch = [
      event('e1', scoreBody('missing', { configId: 'nope' })),
      event('e2', scoreBody('typed', { configId: config.body.id })),
      event('e3', scoreBody('ok', { configId: config.body.id, dataType: 'BOOLEAN', value: 1 })),
    ];
    expect((await call('POST', '/api/public/ingestion', { batch })).body.errors).toEqual([]);
    expect(context.server.scores().map((row) => [row.id, row.name])).toEqual([['ok', 'Helpful']]);
    expect(context.server.dropped().map((d) => d.reason)).toEqual([
      'config nope does not exist',
      "data type NUMERIC differs from config Helpful's BOOLEAN",
    ]);
  });

  it('refuses a batch over 3.5 MB', async () => {
    const big = Array.from({ length: 9000 }, (_, i) =>
      event(`e${i}`, scoreBody(`s${i}`, { dataType: 'TEXT', value: 'x'.repeat(400) })),
    );
    expect((await call('POST', '/api/public/ingestion', { batch: big })).status).toBe(413);
  });

  it('pages v3 scores with a cursor and refuses limits over 100 and unknown field groups', async () => {
    const batch = Array.from({ length: 120 }, (_, i) => event(`e${i}`, scoreBody(`s${i}`)));
    await call('POST', '/api/public/ingestion', { batch });
    const first = await call('GET', '/api/public/v3/scores?limit=100');
    expect(first.body.data).toHaveLength(100);
    const second = await call(
      'GET',
      `/api/public/v3/scores?limit=100&cursor=${first.body.meta.cursor}`,
    );
    expect(second.body.data).toHaveLength(20);
    expect(second.body.meta.cursor).toBeUndefined();
    expect((await call('GET', '/api/public/v3/scores?limit=101')).status).toBe(400);
    expect((await call('GET', '/api/public/v3/scores?fields=everything')).status).toBe(400);
    expect((await call('GET', '/api/public/v3/scores?valueMin=1')).status).toBe(400);
  });

  it('refuses config names and shapes Langfuse refuses', async () => {
    const refused = [
      { name: 'x'.repeat(36), dataType: 'NUMERIC' },
      { name: 'a/b', dataType: 'NUMERIC' },
      { name: 'c', dataType: 'CATEGORICAL' },
      { name: 'c', dataType: 'BOOLEAN', categories: [{ label: 'y', value: 1 }] },
      { name: 'n', dataType: 'NUMERIC', minValue: 2, maxValue: 2 },
      { name: 't', dataType: 'TEXT', minValue: 0 },
    ];
    for (const body of refused) {
      expect((await call('POST', '/api/public/score-configs', body)).status).toBe(400);
    }
    expect(context.server.configs()).toEqual([]);
  });

  it('answers 429 with Retry-After and the rate-limit body when told to', async () => {
    context.server.injectFaults({ status: 429, retryAfterSeconds: 7 });
    const answer = await call('GET', '/api/public/score-configs');
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.body).toMatchObject({ code: 'rate_limited', details: { retryAfterSeconds: 7 } });
    expect((await call('GET', '/api/public/score-configs')).status).toBe(200);
  });

  it('keeps a fault for the operation it names', async () => {
    context.server.injectFaults({ operationId: 'ingestion_batch', status: 500 });
    expect((await call('GET', '/api/public/score-configs')).status).toBe(200);
    expect((await call('POST', '/api/public/ingestion', { batch: [] })).status).toBe(500);
  });
});

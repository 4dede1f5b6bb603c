import { afterAll, beforeAll, expect, it } from 'vitest';
import { LangfuseTestServer } from '../support/langfuse-server/index.js';

// The sink-fault scenario's random faults: a fraction of requests answered 5xx or 429 with
// Retry-After, the rest served as usual.

let server: LangfuseTestServer;
beforeAll(async () => {
  server = await LangfuseTestServer.start();
});
afterAll(async () => {
  await server?.close();
});

/** A small seeded generator, so the test repeats. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

it('answers a fraction of requests with the random faults, and the rest as usual', async () => {
  server.setRandomFaults({
    fraction: 0.3,
    faults: [{ status: 503 }, { status: 429, retryAfterSeconds: 2 }],
    random: seeded(42),
  });
  const auth = `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}`;
  const statuses: number[] = [];
  const retryAfters = new Set<string | null>();
  for (let i = 0; i < 200; i++) {
    const response = await fetch(`${server.url}/api/public/score-configs`, {
      headers: { authorization: auth },
    });
    await response.arrayBuffer();
    statuses.push(response.status);
    if (response.status === 429) retryAfters.add(response.headers.get('retry-after'));
  }
  const faulted = statuses.filter((status) => status !== 200);
  expect(faulted.length).toBe(server.randomFaultCount());
  expect(faulted.length).toBeGreaterThan(30);
  expect(faulted.length).toBeLessThan(90);
  expect(new Set(faulted)).toEqual(new Set([503, 429]));
  expect(retryAfters).toEqual(new Set(['2']));
  server.setRandomFaults(null);
  const after = await fetch(`${server.url}/api/public/score-configs`, {
    headers: { authorization: auth },
  });
  expect(after.status).toBe(200);
  expect(server.violations()).toEqual([]);
});

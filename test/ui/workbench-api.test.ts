import { afterEach, expect, it } from 'vitest';
import { ReviewSession } from '../../src/ui/review-session.js';
import { workbenchApi } from '../../src/ui/workbench-api.js';

// The page's API reads the queue list (and My reviews) only once the queue writes it sent have
// landed, so a reviewer who leaves a queue sees its leases as given back and its verdicts given. Which request lands first cannot be
// timed on demand against the real API, so `fetch` here is a stand-in that answers when the test
// says; the browser tests (test/ui/workbench.temporal.test.ts) run the page against the real one.

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** A stand-in for the network: each request waits until `answer(path)`; `sent` lists them. */
function standInNetwork() {
  const sent: string[] = [];
  const waiting = new Map<string, (body: unknown) => void>();
  globalThis.fetch = (async (input: string | URL | Request) => {
    const path = new URL(String(input)).pathname;
    sent.push(path);
    const body = await new Promise((resolve) => waiting.set(path, resolve));
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  const answer = async (path: string, body: unknown) => {
    await expect.poll(() => waiting.has(path)).toBe(true);
    waiting.get(path)?.(body);
    waiting.delete(path);
  };
  return { sent, answer };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));
const LIST = '/v1/review-queues';

it('reads the queues after the releases on their way have landed', async () => {
  const { sent, answer } = standInNetwork();
  const api = workbenchApi('http://127.0.0.1:9', 'token');
  const released = api.release('answers', 'i1');
  const listed = api.queues();
  await tick();
  expect(sent).toEqual(['/v1/review-queues/answers/items/i1/release']);
  await answer('/v1/review-queues/answers/items/i1/release', { released: true });
  await released;
  await answer(LIST, { queues: [] });
  expect(await listed).toEqual([]);
  expect(sent.at(-1)).toBe(LIST);
});

it("waits for a claim on its way when the reviewer left, and for its lease's release", async () => {
  const { sent, answer } = standInNetwork();
  const api = workbenchApi('http://127.0.0.1:9', 'token');
  const session = new ReviewSession(api, 'answers', { onLeaseLost: () => {} });
  const started = session.start();
  await tick();
  await session.close();
  const listed = api.queues();
  await answer('/v1/review-queues/answers/claim', {
    item: { itemId: 'i2', leaseExpiresAt: new Date(Date.now() + 60_000).toISOString() },
  });
  await tick();
  expect(sent).not.toContain(LIST);
  await answer('/v1/review-queues/answers/items/i2/release', { released: true });
  expect(await started).toBeNull();
  await answer(LIST, { queues: [] });
  await listed;
  expect(sent).toEqual([
    '/v1/review-queues/answers/claim',
    '/v1/review-queues/answers/items/i2/release',
    LIST,
  ]);
});

it('waits for a verdict on its way before reading the queues and My reviews', async () => {
  const { sent, answer } = standInNetwork();
  const api = workbenchApi('http://127.0.0.1:9', 'token');
  const submitted = api.submit('answers', 'i4', { value: { score: 3 }, configId: 'c' });
  const listed = api.queues();
  const mine = api.myReviews('answers');
  await tick();
  expect(sent).toEqual(['/v1/review-queues/answers/items/i4/submit']);
  await answer('/v1/review-queues/answers/items/i4/submit', { recorded: true });
  await submitted;
  await answer(LIST, { queues: [] });
  expect(await listed).toEqual([]);
  await answer('/v1/review-queues/answers', { queue: { feedbackType: 'answer_review' } });
  await answer('/v1/review-queues/answers/my-reviews', { reviews: [] });
  expect(await mine).toEqual({ feedbackType: 'answer_review', configId: '', reviews: [] });
  expect(sent.slice(1).sort()).toEqual([
    LIST,
    '/v1/review-queues/answers',
    '/v1/review-queues/answers/my-reviews',
  ]);
});

import { expect, it } from 'vitest';
import type { ClaimedItem, ItemView } from '../../src/ui/queue-types.js';
import { type QueueApi, ReviewSession } from '../../src/ui/review-session.js';

// The session's lease keeping, apart from the browser. The race below (the reviewer leaves while
// the page's read-ahead claim is on its way) cannot be timed on demand against the real API, so
// the API here is an in-memory stand-in whose claims answer when the test says; the browser
// tests (test/ui/workbench.temporal.test.ts) run the session against the real one.

interface Pending {
  resolve: (item: ClaimedItem | null) => void;
}

function standInApi() {
  const claims: Pending[] = [];
  const released: string[] = [];
  const api: QueueApi = {
    claim: () => new Promise((resolve) => claims.push({ resolve })),
    item: async (_queueId, itemId) => ({ item: { itemId } }) as unknown as ItemView,
    heartbeat: async () => ({}),
    release: async (_queueId, itemId) => {
      released.push(itemId);
      return {};
    },
    skip: async () => ({}),
    submit: async () => ({ otherReviews: [] }),
  };
  return { api, claims, released };
}

const claimed = (itemId: string): ClaimedItem =>
  ({ itemId, leaseExpiresAt: new Date(Date.now() + 60_000).toISOString() }) as ClaimedItem;

it('gives back the lease of an item claimed ahead while the reviewer was leaving', async () => {
  const { api, claims, released } = standInApi();
  const session = new ReviewSession(api, 'answers', { onLeaseLost: () => {} });
  const started = session.start();
  claims[0]?.resolve(claimed('first'));
  expect((await started)?.item.itemId).toBe('first');
  // The item on screen asked for the next one; the reviewer leaves before it arrives.
  await expect.poll(() => claims.length).toBe(2);
  await session.close();
  expect(released).toEqual(['first']);
  claims[1]?.resolve(claimed('ahead'));
  await expect.poll(() => released).toEqual(['first', 'ahead']);
});

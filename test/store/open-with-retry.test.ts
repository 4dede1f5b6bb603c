import { expect, it } from 'vitest';
import { StoreOpenError } from '../../src/store/index.js';
import { openWithRetry } from '../../src/store/postgres/open-with-retry.js';

// What opening a Postgres store waits through. A connect attempt bounded by the time left ends
// in pg's own `timeout expired` when the server does not answer in time (seen on a loaded CI
// machine: it was taken for a refusal to open, so the store gave up saying so, not waiting).

it('waits through connect timeouts as through refusals, and at the deadline says it did not answer', async () => {
  let attempts = 0;
  const error = await openWithRetry(
    async () => {
      attempts += 1;
      throw new Error('timeout expired');
    },
    { server: 'db:5432', timeoutMs: 300 },
  ).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(StoreOpenError);
  expect((error as Error).message).toBe(
    'Postgres at db:5432 did not answer within 0.3 s (timeout expired)',
  );
  expect(attempts).toBeGreaterThan(1);
});

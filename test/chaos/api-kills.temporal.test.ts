import { afterAll, beforeAll, expect, it } from 'vitest';
import { killApiWhileWriting } from '../../bench/chaos/api-kills.js';
import type { Deployment } from '../../bench/chaos/deployment.js';
import { startTestDeployment } from '../support/deployment.js';

// The short version of chaos scenario 2 (npm run bench:chaos kills 10 times): the `evalflow api`
// process SIGKILLed while clients write with Idempotency-Key and retry; every acknowledged write
// is in the log exactly once.

let deployment: Deployment;
beforeAll(async () => {
  deployment = await startTestDeployment();
}, 300_000);
afterAll(async () => {
  await deployment?.close();
});

it('keeps every acknowledged write exactly once through API kills', {
  timeout: 600_000,
}, async () => {
  const figures = await killApiWhileWriting(deployment, {
    kills: 3,
    clients: 4,
    writesPerClient: 20,
    seed: 2,
  });
  expect(figures.refusedRetries).toEqual([]);
  expect(figures.kills).toBe(3);
  expect(figures.acknowledged).toBe(figures.attempted);
  expect(figures.lost).toBe(0);
  expect(figures.duplicated).toBe(0);
  // The kills landed while clients were writing.
  expect(figures.retries).toBeGreaterThan(0);
});

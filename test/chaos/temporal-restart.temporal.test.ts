import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Deployment } from '../../bench/chaos/deployment.js';
import { restartTemporalDuringReevaluation } from '../../bench/chaos/temporal-restart.js';
import { startTestDeployment } from '../support/deployment.js';

// The short version of chaos scenario 3 (npm run bench:chaos re-evaluates 2,000 versions): the
// Temporal dev server SIGKILLed and restarted on its state file during a re-evaluation started
// through the API; it completes, each version evaluated once.

let deployment: Deployment;
beforeAll(async () => {
  deployment = await startTestDeployment({
    worker: true,
  });
}, 300_000);
afterAll(async () => {
  await deployment?.close();
});

it('completes a re-evaluation across a Temporal restart, each version once', {
  timeout: 900_000,
}, async () => {
  const figures = await restartTemporalDuringReevaluation(deployment, { versions: 200 });
  expect(figures.doneAtCrash).toBeLessThan(200);
  expect(figures).toMatchObject({ versions: 200, done: 200, missing: 0, duplicated: 0 });
});

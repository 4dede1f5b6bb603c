import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sinkFaults } from '../../bench/chaos/sink-faults.js';
import { expectWorkerLog, testWorker, timeSkippingEnvironment } from '../support/temporal.js';

// The short version of chaos scenario 4 (npm run bench:chaos runs more runs): the Langfuse test
// server with 30% 5xx and 429, 10% silent drops, 30% deletes that do nothing and 10 minutes of
// visibility lag; every score and deletion ends confirmed or failed with a reason.

// The mirror's activities fail against the injected 5xx and 429 and are retried: expected.
const failedAttempts = expectWorkerLog(/Activity failed[\s\S]*failed with HTTP (429|5\d\d)/);

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await timeSkippingEnvironment();
});
afterAll(async () => {
  await env?.teardown();
});

it('accounts for every score and every deletion while the sink fails, drops and lags', {
  timeout: 600_000,
}, async () => {
  const figures = await sinkFaults({
    env,
    worker: (taskQueue, activities) => testWorker(env, taskQueue, activities),
    runs: 2,
    messagesPerRun: 3,
    seed: 4,
  });
  expect(figures.unsettled).toEqual([]);
  expect(figures.violations).toEqual([]);
  expect(figures.unaccounted).toBe(0);
  expect(figures.ledgerWrong).toBe(0);
  expect(figures.confirmed + figures.deleted + figures.failed).toBe(
    figures.expectedWrites + figures.expectedDeletions,
  );
  // The faults happened: the figures above held through them.
  expect(figures.randomFaults).toBeGreaterThan(0);
  expect(failedAttempts.length).toBeGreaterThan(0);
  expect(figures.dropped + figures.ignoredDeletes).toBeGreaterThan(0);
  expect(figures.deleted).toBeGreaterThan(0);
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Deployment } from '../../bench/chaos/deployment.js';
import { killWorkerWhileEvaluating } from '../../bench/chaos/worker-kills.js';
import { startTestDeployment } from '../support/deployment.js';
import { LangfuseTestServer } from '../support/langfuse-server/index.js';

// The short version of chaos scenario 1 (npm run bench:chaos: 1,000 runs, 20 kills): runs
// reported through the API while the `evalflow worker` process is SIGKILLed and restarted; every
// run gets its three verdicts, with no duplicate feedback and no duplicate score at Langfuse.

let langfuse: LangfuseTestServer;
let deployment: Deployment;
beforeAll(async () => {
  langfuse = await LangfuseTestServer.start();
  deployment = await startTestDeployment({
    worker: true,
    env: {
      LANGFUSE_BASE_URL: langfuse.url,
      LANGFUSE_PUBLIC_KEY: langfuse.publicKey,
      LANGFUSE_SECRET_KEY: langfuse.secretKey,
    },
  });
}, 300_000);
afterAll(async () => {
  await deployment?.close();
  await langfuse?.close();
});

it('gives every run its verdicts once through worker kills', { timeout: 900_000 }, async () => {
  const figures = await killWorkerWhileEvaluating(deployment, {
    runs: 30,
    kills: 3,
    clients: 4,
    langfuse,
    seed: 1,
  });
  expect(figures).toMatchObject({
    runs: 30,
    kills: 3,
    missingVerdicts: 0,
    duplicateFeedback: 0,
    duplicateScoresById: 0,
    duplicateScoresByTarget: 0,
  });
  // Recovery times are a bench goal (15 s); here they only must have been measured.
  expect(figures.recoveries).toHaveLength(3);
  expect(figures.resumes).toHaveLength(3);
  expect(langfuse.scores().length).toBeGreaterThan(0);
  expect(langfuse.violations()).toEqual([]);
});

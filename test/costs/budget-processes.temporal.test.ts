import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../support/postgres-cluster.js';
import { eventually } from '../support/processes.js';
import { endRun, freshDatabase, startRun, workerEnvironment } from '../support/scale-load.js';
import { devServerEnvironment, uniqueTaskQueue } from '../support/temporal.js';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-processes.js';

// Budgets across processes: two `evalflow worker` processes on one Postgres store judge 8 runs at
// once with an LLM judge on a local stand-in for an OpenAI-compatible endpoint (none is reachable
// from here) that bills tokens as it answers. The ledger's cost is the stand-in's tokens at the
// config's price, to the nano-dollar; a tight budget holds across both processes.

const BUDGET_CONFIG = new URL('../support/budget-judges.config.ts', import.meta.url).pathname;
const PRICE = { input: 2.5, output: 10 }; // USD per million tokens, as the config says
const OUTPUT_TOKENS = 17;
/** About three calls' worth: each costs about $0.0004 here. */
const TIGHT_LIMIT_USD = 0.0012;

let env: TestWorkflowEnvironment;
let cluster: ThrowawayCluster | undefined;
let database: { url: string; drop(): Promise<void> };
let host: Store;
let endpoint: Server;
/** What the stand-in billed: each call's tokens. */
const bills: { input: number; output: number }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'evalflow-budgets-'));
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', async () => {
      // Tokens from the prompt's length, so calls differ; a judge's latency, so calls overlap.
      const input = Math.ceil(body.length / 4);
      await sleep(150);
      bills.push({ input, output: OUTPUT_TOKENS });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          choices: [{ message: { content: '{"score": 1, "passed": true, "reasoning": "ok"}' } }],
          usage: { prompt_tokens: input, completion_tokens: OUTPUT_TOKENS },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  env = await devServerEnvironment();
  cluster = process.env.DATABASE_URL ? undefined : await startThrowawayCluster();
  database = await freshDatabase(process.env.DATABASE_URL ?? cluster?.url ?? '');
  host = await openPostgresStore(
    { databaseUrl: database.url },
    { feedbackTypes: conformanceFeedbackTypes() },
  );
  const taskQueue = uniqueTaskQueue('budgets');
  const judgeUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
  for (const name of ['a', 'b']) {
    workers.push(
      startWorkerProcess({
        cwd: dir,
        env: {
          ...workerEnvironment({
            databaseUrl: database.url,
            temporalAddress: env.address,
            temporalNamespace: env.namespace,
            taskQueue,
            dir: join(dir, name),
          }),
          EVALFLOW_CONFIG: BUDGET_CONFIG,
          EVALFLOW_TEST_JUDGE_URL: judgeUrl,
          EVALFLOW_TEST_TIGHT_USD: String(TIGHT_LIMIT_USD),
        },
      }),
    );
  }
  await Promise.all(workers.map((worker) => worker.ready));
});
afterAll(async () => {
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  await host?.close();
  await database?.drop();
  cluster?.stop();
  await env?.teardown();
  endpoint?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** 8 runs ended at once in a workspace; resolves with their settled ledger entries. */
async function judgeEightRuns(workspace: string) {
  const runs = Array.from({ length: 8 }, (_, i) => `r${i}`);
  for (const run of runs) await startRun(host, workspace, run);
  await Promise.all(runs.map((run) => endRun(host, workspace, run)));
  return eventually(
    () => host.ledger.evaluations(workspace),
    (entries) => entries.length === runs.length,
    90_000,
  );
}
const nanosOf = (bill: { input: number; output: number }) =>
  Math.round(bill.input * PRICE.input * 1000 + bill.output * PRICE.output * 1000);

describe('budgets on two worker processes', () => {
  it("records the stand-in's bill exactly, and holds a tight budget across both processes", async () => {
    const ample = await judgeEightRuns('ample');
    expect(ample.map((entry) => entry.state)).toEqual(Array(8).fill('recorded'));
    const [ampleSpend] = await host.usage.spend({ workspace_id: 'ample' }, []);
    expect(bills).toHaveLength(8);
    expect(ampleSpend).toMatchObject({
      evaluations: 8,
      input_tokens: bills.reduce((sum, bill) => sum + bill.input, 0),
      output_tokens: 8 * OUTPUT_TOKENS,
      cost_nanos: bills.reduce((sum, bill) => sum + nanosOf(bill), 0),
      unpriced_reports: 0,
    });
    bills.length = 0;
    const tight = await judgeEightRuns('tight');
    const recorded = tight.filter((entry) => entry.state === 'recorded');
    const skipped = tight.filter((entry) => entry.state === 'skipped');
    expect(recorded.length + skipped.length).toBe(8);
    expect(skipped.length).toBeGreaterThan(0);
    for (const entry of skipped) expect(entry.reason).toMatch(/^budget_exhausted: budget tight/);
    // Only the admitted calls reached the endpoint, and the spend stayed within the limit: the
    // estimate is the version's measured mean, so no in-flight call could overshoot it.
    expect(bills).toHaveLength(recorded.length);
    const [tightSpend] = await host.usage.spend({ workspace_id: 'tight' }, []);
    const spent = tightSpend?.cost_nanos ?? 0;
    expect(spent).toBe(bills.reduce((sum, bill) => sum + nanosOf(bill), 0));
    // Each call admitted reserved the version's measured mean, which is what each call here
    // costs (the prompts are alike), so the spend fills the limit as far as whole calls go and
    // never passes it.
    const limit = TIGHT_LIMIT_USD * 1e9;
    const largest = Math.max(...bills.map(nanosOf));
    expect(spent).toBeLessThanOrEqual(limit);
    expect(spent).toBeGreaterThan(limit - largest);
    console.log(
      `budget test: ${recorded.length} of 8 admitted, spent ${spent} of ${limit} nano-USD`,
    );
  }, 180_000);
});

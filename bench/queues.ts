// npm run bench:queues — review queues through the HTTP API: claim + submit with 100,000 queued
// items and 20 concurrent reviewers, as a ratio to the bare POST /v1/reviews path measured in the
// same run (goal ≥ 0.7), and the p99 of a claim as a reviewer sees it (goal ≤ 50 ms), on SQLite
// and on Postgres (DATABASE_URL, else a throwaway cluster that flushes every commit to disk as a
// production server does). See bench/queues-api.ts for how. The headline figures are the worse
// backend's. Then the reviewers' page in Chromium: submit → the next item on screen, against
// submit, claim and read one after the other, and the page's weight (bench/queues-browser.ts).
// BENCH_QUEUE_BACKENDS (default `sqlite,postgres`) measures one backend alone. The last line is
// one JSON object. Not part of `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { openPostgresStore, openSqliteStore, staticScoreConfigs } from '../src/store/index.js';
import { bundleWorkflows } from '../src/worker/index.js';
import { dropSchema } from '../test/support/postgres.js';
import { startThrowawayCluster } from '../test/support/postgres-cluster.js';
import { benchApp, measureQueues, QUEUED, type QueueFigures, REVIEWERS } from './queues-api.js';
import { browserFigures } from './queues-browser.js';

Runtime.install({ logger: new DefaultLogger('WARN') });
const log = (line: string) => console.log(line);
const storeOptions = {
  ...benchApp,
  scoreConfigs: staticScoreConfigs({ review_verdict: { archived: false } }),
};

const bundle = { code: (await bundleWorkflows()).code };
const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-queues-'));
const cluster = process.env.DATABASE_URL
  ? undefined
  : await startThrowawayCluster({ durable: true });
const databaseUrl = process.env.DATABASE_URL ?? cluster?.url ?? '';
const schema = `bench_queues_${process.pid}`;
const figures: QueueFigures[] = [];
/** BENCH_QUEUE_BACKENDS: which backends to measure (default both, `sqlite,postgres`). */
const BACKENDS = (process.env.BENCH_QUEUE_BACKENDS ?? 'sqlite,postgres').split(',');
try {
  log(`bench:queues — ${QUEUED} queued items, ${REVIEWERS} concurrent reviewers, through HTTP`);
  for (const [backend, open] of (
    [
      ['sqlite', async () => openSqliteStore(join(dir, 'bench.db'), storeOptions)],
      ['postgres', () => openPostgresStore({ databaseUrl, schema }, storeOptions)],
    ] as const
  ).filter(([name]) => BACKENDS.includes(name))) {
    const store = await open();
    try {
      figures.push(await measureQueues(backend, env, bundle, store, log));
    } finally {
      await store.close();
    }
  }
} finally {
  await env.teardown();
  if (cluster === undefined) await dropSchema(databaseUrl, schema).catch(() => {});
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}

console.log('backend   reviews/s  claim+submit/s  ratio  claim p50 ms  claim p99 ms');
for (const f of figures) {
  console.log(
    `${f.backend.padEnd(10)}${String(f.review_per_s).padEnd(11)}${String(f.claim_submit_per_s).padEnd(16)}` +
      `${String(f.claim_submit_vs_review).padEnd(7)}${String(f.claim_p50_ms).padEnd(14)}${f.claim_p99_ms}`,
  );
}
const browser = await browserFigures(log);
const of = (backend: string) => figures.find((f) => f.backend === backend);
console.log(
  JSON.stringify({
    bench: 'queues',
    queued_items: QUEUED,
    reviewers: REVIEWERS,
    claim_submit_vs_review: Math.min(...figures.map((f) => f.claim_submit_vs_review)),
    claim_p99_ms: Math.max(...figures.map((f) => f.claim_p99_ms)),
    ...browser,
    sqlite: of('sqlite'),
    postgres: of('postgres'),
  }),
);

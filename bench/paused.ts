// npm run bench:paused — what paused runs cost: 10,000 runs paused at once, each waiting in its
// `evaluateRun` workflow, on the dev server and evalflow's own worker settings (`createWorker`).
//
// It measures the worker's RSS after it idles with a few paused runs, and again once every run
// has paused and the worker idles again (`paused_10k_rss_growth_mb`), and the longest dev-server
// history of any paused run. Sized for 2 cores: BENCH_PAUSED runs (10,000) started 50 at a time.
// The last line is one JSON object. Not part of `npm test`.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../src/cli/setup.js';
import { executableOption } from '../src/cli/temporal-binaries.js';
import { mapConcurrently } from '../src/client/concurrently.js';
import { bundleWorkflows, createWorker } from '../src/worker/create-worker.js';
import type { evaluateRun } from '../src/workflows/evaluate-run.js';
import { type RunEvent, runEventSignal } from '../src/workflows/evaluate-run-messages.js';

const PAUSED = Number(process.env.BENCH_PAUSED ?? 10_000);
const WARM = 50;
const taskQueue = 'bench-paused';

Runtime.install({ logger: new DefaultLogger('WARN') });
const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const client = env.client;
const worker = await createWorker({
  connection: env.nativeConnection,
  namespace: env.namespace ?? 'default',
  taskQueue,
  workflowBundle: await bundleWorkflows(),
});
const running = worker.run();
const workflowId = (i: number) => `paused-${i}`;

/** Starts runs `from`..`to` paused: started, then at once a pause, as the relay delivers them. */
async function pauseRuns(from: number, to: number) {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  await mapConcurrently(ids, 50, async (i) => {
    await client.workflow.signalWithStart<typeof evaluateRun, [RunEvent]>('evaluateRun', {
      workflowId: workflowId(i),
      taskQueue,
      args: [
        {
          workspaceId: 'bench',
          runId: `r${i}`,
          threadId: `t${i}`,
          plan: { turn: [], message: [], artifact: [] },
        },
      ],
      signal: runEventSignal,
      signalArgs: [{ seq: 1, type: 'paused' }],
    });
  });
}

/** Waits until every run's first workflow task completed; returns each history's length. */
async function settledHistories(from: number, to: number): Promise<number[]> {
  const lengths = new Map<number, number>();
  while (lengths.size < to - from) {
    const waiting = Array.from({ length: to - from }, (_, i) => from + i).filter(
      (i) => !lengths.has(i),
    );
    await mapConcurrently(waiting, 32, async (i) => {
      const { events = [] } = await client.workflow.getHandle(workflowId(i)).fetchHistory();
      if (events?.some((e) => e.workflowTaskCompletedEventAttributes)) {
        lengths.set(i, events.length);
      }
    });
    if (lengths.size < to - from) await sleep(500);
  }
  return [...lengths.values()];
}

/** RSS and JS heap once the process has idled and collected its garbage. */
async function idleMemoryMb(): Promise<{ rss: number; heap: number }> {
  await sleep(3000);
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await sleep(200);
  }
  const { rss, heapUsed } = process.memoryUsage();
  return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20 };
}

try {
  await pauseRuns(0, WARM);
  await settledHistories(0, WARM);
  const before = await idleMemoryMb();
  const start = performance.now();
  await pauseRuns(WARM, WARM + PAUSED);
  const histories = await settledHistories(WARM, WARM + PAUSED);
  const seconds = (performance.now() - start) / 1000;
  const after = await idleMemoryMb();
  const cached = worker.getStatus().numCachedWorkflows;
  const longest = Math.max(...histories);
  console.log(
    `paused: ${PAUSED} runs in ${seconds.toFixed(0)} s (${(PAUSED / seconds).toFixed(0)}/s); worker RSS ${before.rss.toFixed(0)} → ${after.rss.toFixed(0)} MB (JS heap ${before.heap.toFixed(0)} → ${after.heap.toFixed(0)} MB), ${cached} workflows cached; longest history ${longest} events` +
      (globalThis.gc ? '' : ' (no --expose-gc: RSS includes uncollected garbage)'),
  );
  console.log(
    JSON.stringify({
      bench: 'paused',
      paused_runs: PAUSED,
      paused_10k_rss_growth_mb: Math.round(after.rss - before.rss),
      paused_heap_growth_mb: Math.round(after.heap - before.heap),
      paused_history_events_max: longest,
      cached_workflows: cached,
      worker_rss_mb: Math.round(after.rss),
    }),
  );
} finally {
  worker.shutdown();
  await running;
  await env.teardown();
}

// npm run bench:paused — what paused runs cost: 10,000 runs paused at once, each waiting in its
// `evaluateRun` workflow, on the dev server and evalflow's own worker settings (`createWorker`).
//
// The worker runs in a process of its own (bench/paused-worker.ts). It measures the worker's RSS
// after it idles with a few paused runs, and again once every run
// has paused and the worker idles again (`paused_10k_rss_growth_mb`), and the longest dev-server
// history of any paused run. Sized for 2 cores: BENCH_PAUSED runs (10,000) started 50 at a time.
// The last line is one JSON object. Not part of `npm test`.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { mapConcurrently } from '../src/relay/concurrently.js';
import { bundleWorkflows } from '../src/worker/create-worker.js';
import type { evaluateRun } from '../src/workflows/evaluate-run.js';
import { type RunEvents, runEventSignal } from '../src/workflows/evaluate-run-messages.js';

const PAUSED = Number(process.env.BENCH_PAUSED ?? 10_000);
const WARM = 50;
const taskQueue = 'bench-paused';

Runtime.install({ logger: new DefaultLogger('WARN') });
const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const client = env.client;
const dir = mkdtempSync(join(tmpdir(), 'evalflow-paused-'));
const bundlePath = join(dir, 'workflows.js');
writeFileSync(bundlePath, (await bundleWorkflows()).code);
const worker = fork(
  new URL('./paused-worker.ts', import.meta.url).pathname,
  [env.address, env.namespace ?? 'default', taskQueue, bundlePath],
  { execArgv: ['--import', 'tsx', '--expose-gc'] },
);
const replies: ((value: unknown) => void)[] = [];
worker.on('message', (message) => replies.shift()?.(message));
const reply = <T>() => new Promise<T>((resolve) => replies.push(resolve as (v: unknown) => void));
await reply();
const workflowId = (i: number) => `paused-${i}`;

/** Starts runs `from`..`to` paused: started, then at once a pause, as the relay delivers them. */
async function pauseRuns(from: number, to: number) {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  await mapConcurrently(ids, 50, async (i) => {
    if (i > from && (i - from) % 1000 === 0) console.error(`paused: ${i - from} started`);
    await client.workflow.signalWithStart<typeof evaluateRun, RunEvents>('evaluateRun', {
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
    if (lengths.size < to - from) {
      console.error(`paused: ${lengths.size} of ${to - from} through their first task`);
      await sleep(500);
    }
  }
  return [...lengths.values()];
}

/** The worker's RSS and JS heap once it has idled and collected its garbage. */
async function idleMemoryMb(): Promise<{ rss: number; heap: number; cached: number }> {
  await sleep(3000);
  const answer = reply<{ rss: number; heap: number; cached: number }>();
  worker.send('memory');
  return answer;
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
  const cached = after.cached;
  const longest = Math.max(...histories);
  console.log(
    `paused: ${PAUSED} runs in ${seconds.toFixed(0)} s (${(PAUSED / seconds).toFixed(0)}/s); worker RSS ${before.rss.toFixed(0)} → ${after.rss.toFixed(0)} MB (JS heap ${before.heap.toFixed(0)} → ${after.heap.toFixed(0)} MB), ${cached} workflows cached; longest history ${longest} events`,
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
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.send('stop');
  await exited;
  await env.teardown();
  rmSync(dir, { recursive: true, force: true });
}

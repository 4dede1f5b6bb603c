// npm run bench:threads — what thread evaluation costs, on the dev server and evalflow's own
// worker settings (`createWorker`), the worker in a process of its own (bench/threads-worker.ts)
// with real activities on a SQLite store.
//
// 1. Waiting: BENCH_THREADS (10,000) threads waiting at once to go quiet, each `evaluateThread`
//    started by one message's signal (as the relay sends it) and waiting on its one-hour timer.
//    It measures the worker's RSS once it idles with a few waiting, and again once every thread
//    waits (`threads_10k_rss_growth_mb`, goal < 100), and each thread's history events
//    (`thread_history_events_max`, goal < 50). Baseline, in the same process: BENCH_PAUSED
//    (1,000) paused runs, each a waiting `evaluateRun`, as `npm run bench:paused` measures them.
// 2. Judging: BENCH_QUIET (200) conversations reported through the store at BENCH_RATE (2) a
//    second and relayed by a trigger relay, each a run with a question and an answer, judged by
//    a thread evaluator once quiet for 2 s and by a turn evaluator when the run ends, both
//    awaiting BENCH_JUDGE_MS (100 ms) of I/O. `thread_verdict_delay_p99_ms` (goal ≤ 2,000) is the
//    time from the thread having been quiet for its idleFor (its run's end + 2 s) to its verdict
//    recorded, less the judge's own time; the baseline is the same for the run's verdict, from
//    its end (`run_verdict_delay_p99_ms`). The rate is one two shared cores keep up with: a
//    delay measures evalflow only while nothing queues (at 10 a second, ten runs and ten
//    threads each second, such a machine falls behind, and run verdicts trail as far).
// Sized for 2 cores (a few minutes). Not part of `npm test`. The last line is one JSON object.
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
import type { EvaluationRule } from '../src/core/index.js';
import { mapConcurrently } from '../src/relay/concurrently.js';
import { TriggerRelay } from '../src/relay/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { bundleWorkflows } from '../src/worker/create-worker.js';
import type { evaluateRun } from '../src/workflows/evaluate-run.js';
import { type RunEvents, runEventSignal } from '../src/workflows/evaluate-run-messages.js';
import type { evaluateThread } from '../src/workflows/evaluate-thread.js';
import { type ThreadEvent, threadEventSignal } from '../src/workflows/evaluate-thread-messages.js';
import { evaluators, feedbackTypes, JUDGE_MS } from './threads-app.js';

const THREADS = Number(process.env.BENCH_THREADS ?? 10_000);
const PAUSED = Number(process.env.BENCH_PAUSED ?? 1_000);
const QUIET = Number(process.env.BENCH_QUIET ?? 200);
const RATE = Number(process.env.BENCH_RATE ?? 2);
const IDLE_MS = 2000;
const WARM = 50;
const taskQueue = 'bench-threads';

Runtime.install({ logger: new DefaultLogger('WARN') });
const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const client = env.client;
const dir = mkdtempSync(join(tmpdir(), 'evalflow-threads-bench-'));
const bundlePath = join(dir, 'workflows.js');
const storePath = join(dir, 'evalflow.db');
writeFileSync(bundlePath, (await bundleWorkflows()).code);
const store = openSqliteStore(storePath, { feedbackTypes, evaluators, pollMs: 50 });
const worker = fork(
  new URL('./threads-worker.ts', import.meta.url).pathname,
  [env.address, env.namespace ?? 'default', taskQueue, bundlePath, storePath],
  { execArgv: ['--import', 'tsx', '--expose-gc'] },
);
const replies: ((value: unknown) => void)[] = [];
worker.on('message', (message) => replies.shift()?.(message));
const reply = <T>() => new Promise<T>((resolve) => replies.push(resolve as (v: unknown) => void));
await reply();

interface Memory {
  rss: number;
  heap: number;
  cached: number;
}
/** The worker's RSS and JS heap once it has idled and collected its garbage. */
async function idleMemoryMb(): Promise<Memory> {
  await sleep(3000);
  const answer = reply<Memory>();
  worker.send('memory');
  return answer;
}

const waitingId = (i: number) => `thread-waiting-${i}`;
const pausedId = (i: number) => `run-paused-${i}`;
const hour = { name: 'thread_judge', version: '1', idleForMs: 3_600_000 };

/** Threads `from`..`to` waiting: one message each, as the relay signals it. */
async function waitingThreads(from: number, to: number) {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  await mapConcurrently(ids, 50, async (i) => {
    if (i > from && (i - from) % 2000 === 0) console.error(`threads: ${i - from} started`);
    await client.workflow.signalWithStart<typeof evaluateThread, [ThreadEvent]>('evaluateThread', {
      workflowId: waitingId(i),
      taskQueue,
      args: [{ workspaceId: 'waiting', threadId: `t${i}` }],
      signal: threadEventSignal,
      signalArgs: [{ seq: 1, type: 'message', plan: [hour] }],
    });
  });
}

/** Runs `from`..`to` paused: started, then at once a pause (the baseline). */
async function pausedRuns(from: number, to: number) {
  const ids = Array.from({ length: to - from }, (_, i) => from + i);
  await mapConcurrently(ids, 50, async (i) => {
    await client.workflow.signalWithStart<typeof evaluateRun, RunEvents>('evaluateRun', {
      workflowId: pausedId(i),
      taskQueue,
      args: [
        {
          workspaceId: 'paused',
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

/** Waits until each workflow has reached its wait; returns each history's length. */
async function settled(ids: string[], waiting: (events: object[]) => boolean): Promise<number[]> {
  const lengths = new Map<string, number>();
  while (lengths.size < ids.length) {
    const left = ids.filter((id) => !lengths.has(id));
    await mapConcurrently(left, 32, async (id) => {
      const { events = [] } = await client.workflow.getHandle(id).fetchHistory();
      if (events && waiting(events)) lengths.set(id, events.length);
    });
    if (lengths.size < ids.length) {
      console.error(`waiting: ${lengths.size} of ${ids.length} at their wait`);
      await sleep(1000);
    }
  }
  return [...lengths.values()];
}
const onTimer = (events: object[]) =>
  events.some((e) => (e as { timerStartedEventAttributes?: unknown }).timerStartedEventAttributes);
const throughFirstTask = (events: object[]) =>
  events.some(
    (e) =>
      (e as { workflowTaskCompletedEventAttributes?: unknown })
        .workflowTaskCompletedEventAttributes,
  );

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};
const range = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);

try {
  // Baseline: paused runs, the workflow evalflow already keeps waiting by the thousand.
  const pausedBefore = await idleMemoryMb();
  await pausedRuns(0, PAUSED);
  const pausedHistories = await settled(range(PAUSED).map(pausedId), throughFirstTask);
  const pausedAfter = await idleMemoryMb();

  // 1. Waiting threads.
  await waitingThreads(0, WARM);
  await settled(range(WARM).map(waitingId), onTimer);
  const before = await idleMemoryMb();
  const started = performance.now();
  await waitingThreads(WARM, WARM + THREADS);
  const histories = await settled(range(THREADS, WARM).map(waitingId), onTimer);
  const seconds = (performance.now() - started) / 1000;
  const after = await idleMemoryMb();
  const longest = Math.max(...histories);
  const mean = histories.reduce((a, b) => a + b, 0) / histories.length;
  const pausedLongest = Math.max(...pausedHistories);
  const growth = after.rss - before.rss;
  const pausedGrowthPer10k = ((pausedAfter.rss - pausedBefore.rss) * 10_000) / PAUSED;
  console.log(
    `waiting: ${THREADS} threads in ${seconds.toFixed(0)} s (${(THREADS / seconds).toFixed(0)}/s); ` +
      `worker RSS ${before.rss.toFixed(0)} → ${after.rss.toFixed(0)} MB (+${growth.toFixed(0)}; JS heap ` +
      `${before.heap.toFixed(0)} → ${after.heap.toFixed(0)} MB), ${after.cached} workflows cached; ` +
      `history ${longest} events at most, ${mean.toFixed(1)} on average`,
  );
  console.log(
    `baseline: ${PAUSED} paused runs, worker RSS +${(pausedAfter.rss - pausedBefore.rss).toFixed(0)} MB ` +
      `(+${pausedGrowthPer10k.toFixed(0)} per 10,000), history ${pausedLongest} events; a waiting ` +
      `thread holds ${(longest / pausedLongest).toFixed(1)}× a paused run's events`,
  );

  // 2. Quiet conversations through the store and the relay, judged 2 s after their run ends.
  const rules: EvaluationRule[] = [
    {
      evaluator: 'thread_judge@1',
      targets: ['thread'],
      sample_rate: 1,
      filter: {},
      enabled: true,
      idle_for: `${IDLE_MS}ms`,
    },
    { evaluator: 'turn_judge@1', targets: ['turn'], sample_rate: 1, filter: {}, enabled: true },
  ];
  const workspace_id = 'quiet';
  const relay = await new TriggerRelay({
    store,
    client,
    taskQueue,
    workspaceId: workspace_id,
    rules,
  }).follow();
  const host = { kind: 'system', name: 'bench' } as const;
  const ended = new Map<string, number>();
  const conversation = async (i: number) => {
    const thread_id = `c${i}`;
    const run_id = `r${i}`;
    for (const command of [
      { type: 'create_thread', thread_id },
      { type: 'start_run', run_id, thread_id },
      { type: 'post_message', thread_id, role: 'user', content: 'Where is my refund?', run_id },
      { type: 'post_message', thread_id, role: 'assistant', content: 'On its way.', run_id },
      { type: 'end_run', run_id, status: 'completed' },
    ] as const) {
      const outcome = await store.execute({ workspace_id, actor: host, command });
      if (outcome.type !== 'recorded') throw new Error(outcome.message);
      if (command.type === 'end_run') ended.set(thread_id, Date.parse(outcome.events[0]?.ts ?? ''));
    }
  };
  const reporting = performance.now();
  for (let i = 0; i < QUIET; i++) {
    const due = reporting + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    void conversation(i);
  }
  const threadDelays: number[] = [];
  const runDelays: number[] = [];
  const deadline = Date.now() + 300_000;
  for (;;) {
    const verdicts = await store.feedback(workspace_id, { feedback_type: 'bench_resolution' });
    if (verdicts.length >= 2 * QUIET || Date.now() > deadline) {
      for (const record of verdicts) {
        const thread = record.thread_id ?? '';
        const end = ended.get(thread) ?? Number.NaN;
        const at = Date.parse(record.ts);
        if (record.target.kind === 'thread') threadDelays.push(at - (end + IDLE_MS) - JUDGE_MS);
        else runDelays.push(at - end - JUDGE_MS);
      }
      break;
    }
    await sleep(250);
  }
  await relay.close();
  if (threadDelays.length < QUIET || runDelays.length < QUIET) {
    throw new Error(
      `only ${threadDelays.length} thread and ${runDelays.length} run verdicts of ${QUIET} each`,
    );
  }
  const figures = {
    thread: { p50: percentile(threadDelays, 50), p99: percentile(threadDelays, 99) },
    run: { p50: percentile(runDelays, 50), p99: percentile(runDelays, 99) },
    threadMax: Math.max(...threadDelays),
  };
  console.log(
    `judging: ${QUIET} conversations at ${RATE}/s, judge ${JUDGE_MS} ms; quiet for ${IDLE_MS} ms → ` +
      `thread verdict p50 ${figures.thread.p50} ms, p99 ${figures.thread.p99} ms, max ` +
      `${figures.threadMax} ms beyond the judge; baseline run end → verdict p50 ${figures.run.p50} ` +
      `ms, p99 ${figures.run.p99} ms; thread/run p99 ${(figures.thread.p99 / Math.max(figures.run.p99, 1)).toFixed(2)}×`,
  );
  console.log(
    JSON.stringify({
      bench: 'threads',
      waiting_threads: THREADS,
      threads_10k_rss_growth_mb: Math.round((growth * 10_000) / THREADS),
      threads_heap_growth_mb: Math.round(after.heap - before.heap),
      thread_history_events_max: longest,
      thread_history_events_mean: Number(mean.toFixed(1)),
      cached_workflows: after.cached,
      worker_rss_mb: Math.round(after.rss),
      paused_runs: PAUSED,
      paused_10k_rss_growth_mb: Math.round(pausedGrowthPer10k),
      paused_history_events_max: pausedLongest,
      history_vs_paused_run: Number((longest / pausedLongest).toFixed(2)),
      quiet_threads: QUIET,
      judge_ms: JUDGE_MS,
      idle_for_ms: IDLE_MS,
      thread_verdict_delay_p50_ms: figures.thread.p50,
      thread_verdict_delay_p99_ms: figures.thread.p99,
      run_verdict_delay_p50_ms: figures.run.p50,
      run_verdict_delay_p99_ms: figures.run.p99,
      thread_vs_run_delay_p99: Number(
        (figures.thread.p99 / Math.max(figures.run.p99, 1)).toFixed(2),
      ),
    }),
  );
} finally {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.send('stop');
  await exited;
  await store.close();
  await env.teardown();
  rmSync(dir, { recursive: true, force: true });
}

// npm run bench:restart — how soon an `evalflow worker` killed with SIGKILL is back, and how soon
// the runs it had in flight get their verdicts, on one SQLite state folder and one Temporal dev
// server; against the same restarts with the workflow bundle cache emptied before each (the
// bundler at every start, as before the cache), in the same run.
//
// Each cycle ends BENCH_BATCH runs (10) that were started and waiting, lets their evaluations
// begin (a random 0.2–1.5 s), SIGKILLs the worker, spawns it again and waits for its
// "worker polling" line, then for the batch's verdicts. The app is the slow judges' one
// (test/support/slow-judges.config.ts): three judges per run, BENCH_JUDGE_MS (100) each.
// - `restart_to_polling_s`: spawn to the "polling" line, p50 and max over BENCH_RESTARTS (6)
//   restarts from the cache (goal ≤ 1.5 quiet); `cold_restart_to_polling_s` the same over
//   BENCH_COLD_RESTARTS (3) restarts that bundle, and `cold_vs_cached` their p50s' ratio.
// - `engine_start_s`: of those, the engine's own start (its `engine.start` line at `polling`),
//   p50 cached and cold: the rest is Node loading the CLI, the sources and the app.
// - `kill_to_verdict_p99_s`: for the runs ended but not yet judged at a kill, their end until
//   their last verdict (goal ≤ 5); `cold_kill_to_verdict_p99_s` beside it. `retry_started_p99_s`:
//   of that, their end until their cut-short evaluations started again, from the runs' histories
//   (the heartbeat timeout, the retry's wait, the dispatch); the rest is the judging.
// - `compiled_*`: the same over BENCH_COMPILED_RESTARTS (4) restarts of the compiled CLI
//   (dist/, as an installed package or the image runs it, its prebuilt bundle included), the
//   app importing `evalflow` from dist/ too; the bench runs `npm run build` first for them.
// Not part of `npm test`. The last line is one JSON object.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { openSqliteStore } from '../src/store/index.js';
import { evaluateRunWorkflowId } from '../src/workflows/evaluate-run-messages.js';
import { eventTimeMs } from '../test/support/history-chain.js';
import { percentile } from '../test/support/relay-load.js';
import { endRun, SLOW_JUDGES_CONFIG, startRun } from '../test/support/scale-load.js';
import slowJudges from '../test/support/slow-judges.config.js';
import { startWorkerProcess, type WorkerProcess } from '../test/support/worker-processes.js';

const RESTARTS = Number(process.env.BENCH_RESTARTS ?? 6);
const COLD_RESTARTS = Number(process.env.BENCH_COLD_RESTARTS ?? 3);
const COMPILED_RESTARTS = Number(process.env.BENCH_COMPILED_RESTARTS ?? 4);
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
const JUDGE_MS = Number(process.env.BENCH_JUDGE_MS ?? 100);
const VERDICTS_PER_RUN = 3;
const WORKSPACE = 'ws';

Runtime.install({ logger: new DefaultLogger('WARN') });
if (COMPILED_RESTARTS > 0) {
  console.log('restart: npm run build, for the compiled restarts');
  execFileSync('npm', ['run', 'build'], { stdio: 'ignore' });
}
const binaries = await ensureTemporalBinaries();
const temporal = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-restart-'));
const home = join(dir, 'home');
mkdirSync(home);
const store = openSqliteStore(join(home, 'evalflow.db'), slowJudges);

// Only what a deployment sets: none of the parent's own evalflow settings leak in.
const environment: NodeJS.ProcessEnv = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(EVALFLOW_|TEMPORAL_|DATABASE_URL$)/.test(name),
    ),
  ),
  EVALFLOW_HOME: home,
  TEMPORAL_ADDRESS: temporal.address,
  EVALFLOW_TASK_QUEUE: 'bench-restart',
  EVALFLOW_CONFIG: SLOW_JUDGES_CONFIG,
  EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
  EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
  EVALFLOW_TEST_JUDGE_MS: String(JUDGE_MS),
  EVALFLOW_TEST_JUDGE_CONCURRENCY: '4',
};

/**
 * Spawns the worker; resolves with it, the seconds from spawn to its "polling" line, and the
 * seconds its engine said its start took (`engine.start` at `polling`): the rest is Node loading
 * the CLI, the sources and the app.
 */
async function spawnWorker(
  compiled = false,
): Promise<{ worker: WorkerProcess; seconds: number; engine: number }> {
  const began = performance.now();
  const worker = startWorkerProcess({ cwd: dir, env: environment, compiled });
  await worker.ready;
  const seconds = (performance.now() - began) / 1000;
  return { worker, seconds, engine: enginePollingMs(worker.output()) / 1000 };
}

function enginePollingMs(output: string): number {
  for (const line of output.split('\n')) {
    // One JSON object per line, unless stderr's output came between a line's chunks.
    if (!line.startsWith('{') || !line.includes('"engine.start"')) continue;
    try {
      const parsed = JSON.parse(line) as { phase?: string; total_ms?: number };
      if (parsed.phase === 'polling') return parsed.total_ms ?? Number.NaN;
    } catch {}
  }
  return Number.NaN;
}

/** When each run got its last verdict, as the ledger is seen every 100 ms. */
const judgedAt = new Map<string, number>();
let watching = true;
const watcher = (async () => {
  while (watching) {
    const perRun = new Map<string, number>();
    for (const entry of await store.ledger.evaluations(WORKSPACE)) {
      // The judges judge turns: `turn:{run}`.
      const run = entry.target_key.replace(/^turn:/, '');
      perRun.set(run, (perRun.get(run) ?? 0) + 1);
    }
    const now = performance.now();
    for (const [run, count] of perRun) {
      if (count >= VERDICTS_PER_RUN && !judgedAt.has(run)) judgedAt.set(run, now);
    }
    await sleep(100);
  }
})();

let next = 0;
let worker = (await spawnWorker()).worker;

/** One cycle: a batch ended, a kill mid-evaluation, a restart; figures for the runs in flight. */
async function cycle(
  kind: 'cold' | 'cached' | 'compiled',
): Promise<{ restart: number; engine: number; verdicts: number[]; retries: number[] }> {
  const runs = Array.from({ length: BATCH }, () => `r${next++}`);
  for (const run of runs) await startRun(store, WORKSPACE, run);
  const endedAt = new Map<string, number>();
  const endedAtWall = new Map<string, number>();
  for (const run of runs) {
    await endRun(store, WORKSPACE, run);
    endedAt.set(run, performance.now());
    endedAtWall.set(run, Date.now());
  }
  await sleep(200 + Math.random() * 1300);
  worker.child.kill('SIGKILL');
  await worker.exited;
  const inFlight = runs.filter((run) => !judgedAt.has(run));
  if (kind === 'cold') rmSync(join(home, 'workflow-bundles'), { recursive: true, force: true });
  const restarted = await spawnWorker(kind === 'compiled');
  worker = restarted.worker;
  const deadline = performance.now() + 180_000;
  while (!runs.every((run) => judgedAt.has(run)) && performance.now() < deadline) await sleep(100);
  const verdicts = inFlight.map(
    (run) => ((judgedAt.get(run) ?? Number.POSITIVE_INFINITY) - (endedAt.get(run) ?? 0)) / 1000,
  );
  const retries = await retriedAfterEnd(inFlight, endedAtWall);
  console.log(
    `${kind} restart: polling after ${restarted.seconds.toFixed(2)} s ` +
      `(the engine's start ${restarted.engine.toFixed(2)} s); ` +
      `${inFlight.length} runs in flight, last verdict ${Math.max(0, ...verdicts).toFixed(2)} s after its end, ` +
      `last retried evaluation started ${Math.max(0, ...retries).toFixed(2)} s after its end`,
  );
  return { restart: restarted.seconds, engine: restarted.engine, verdicts, retries };
}

/**
 * For each run whose evaluations the kill cut short, its end until the last of them started
 * again (an attempt after the first, from the run's history): the heartbeat timeout, the retry's
 * wait and the dispatch to the new worker. The rest of its verdict's time is the judging itself.
 */
async function retriedAfterEnd(runs: string[], endedAtWall: Map<string, number>) {
  const seconds: number[] = [];
  for (const run of runs) {
    const workflowId = evaluateRunWorkflowId(store.id, WORKSPACE, run);
    const { events } = await temporal.client.workflow.getHandle(workflowId).fetchHistory();
    const retried = (events ?? [])
      .filter((event) => (event.activityTaskStartedEventAttributes?.attempt ?? 1) > 1)
      .map(eventTimeMs);
    if (retried.length > 0) {
      seconds.push((Math.max(...retried) - (endedAtWall.get(run) ?? 0)) / 1000);
    }
  }
  return seconds;
}

type Cycle = Awaited<ReturnType<typeof cycle>>;
const cold: Cycle[] = [];
const cached: Cycle[] = [];
const compiled: Cycle[] = [];
try {
  for (let i = 0; i < COLD_RESTARTS; i++) cold.push(await cycle('cold'));
  for (let i = 0; i < RESTARTS; i++) cached.push(await cycle('cached'));
  for (let i = 0; i < COMPILED_RESTARTS; i++) compiled.push(await cycle('compiled'));
} finally {
  watching = false;
  await watcher;
  worker.child.kill('SIGTERM');
  await worker.exited;
  await store.close();
  await temporal.teardown();
  rmSync(dir, { recursive: true, force: true });
}

const round = (seconds: number) => Number(seconds.toFixed(2));
const restarts = (cycles: Cycle[]) => cycles.map((c) => c.restart);
/** The p99 of one of the cycles' per-run figures, over all their runs in flight. */
const p99 = (cycles: Cycle[], figure: 'verdicts' | 'retries') =>
  round(
    percentile(
      cycles.flatMap((c) => c[figure]),
      99,
    ),
  );
const coldP50 = percentile(restarts(cold), 50);
const cachedP50 = percentile(restarts(cached), 50);
console.log(
  JSON.stringify({
    bench: 'restart',
    restart_to_polling_s: { p50: round(cachedP50), max: round(Math.max(...restarts(cached))) },
    cold_restart_to_polling_s: { p50: round(coldP50), max: round(Math.max(...restarts(cold))) },
    cold_vs_cached: round(coldP50 / cachedP50),
    engine_start_s: {
      p50: round(
        percentile(
          cached.map((c) => c.engine),
          50,
        ),
      ),
      cold_p50: round(
        percentile(
          cold.map((c) => c.engine),
          50,
        ),
      ),
    },
    kill_to_verdict_p99_s: p99(cached, 'verdicts'),
    retry_started_p99_s: p99(cached, 'retries'),
    cold_kill_to_verdict_p99_s: p99(cold, 'verdicts'),
    compiled_restart_to_polling_s: {
      p50: round(percentile(restarts(compiled), 50)),
      max: round(Math.max(...restarts(compiled))),
    },
    compiled_engine_start_s: round(
      percentile(
        compiled.map((c) => c.engine),
        50,
      ),
    ),
    compiled_kill_to_verdict_p99_s: p99(compiled, 'verdicts'),
    compiled_retry_started_p99_s: p99(compiled, 'retries'),
    compiled_vs_cached: round(percentile(restarts(compiled), 50) / cachedP50),
    runs_in_flight_at_kills: cached.flatMap((c) => c.verdicts).length,
    restarts: RESTARTS,
    cold_restarts: COLD_RESTARTS,
    compiled_restarts: COMPILED_RESTARTS,
  }),
);

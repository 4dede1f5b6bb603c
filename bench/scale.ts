// npm run bench:scale — several `evalflow worker` processes on one Postgres store and one Temporal
// dev server, against one worker on the same servers in the same run.
//
// The load is judge-bound: the slow judges' app (test/support/slow-judges.config.ts), three turn
// judges per run, each awaiting BENCH_JUDGE_MS of I/O (200 ms) through a judge endpoint that takes
// BENCH_JUDGE_CONCURRENCY calls at once from each process (1). So one worker's limit is
// 1 / 0.2 s = 5 evaluations/s whatever the CPU, and a second process brings its own 5. Kept that
// low for a 2-core machine shared by several benches: at 2 calls per process the two workers
// reached 1.4–1.9× as the load average went from 26 to 13, at 4 calls 1.55×; their CPU, not the
// judge, had become the limit.
//
// 1. `two_workers_vs_one`: BENCH_RUNS runs (90) started and waiting, then all ended at once;
//    runs evaluated per second, from the first end appended to the last verdict, with two workers
//    over one (goal ≥ 1.6, limit 2). Not from the first verdict: a stall of the loaded machine
//    before it lets the verdicts behind it land in a burst, which overstates the rate.
// 2. `duplicate_signals`: signals a run's workflow got with a seq it had had already, per run,
//    while two processes follow the store (goal 0: one relays each workspace).
// 3. `relay_signal_p50_ms`: a run's end committed by the host until its workflow's history holds
//    the signal (the server's event time), for BENCH_SIGNALS runs ended one at a time on an idle
//    relay, which only NOTIFY wakes before its next poll (goal ≤ 50); beside it the bench's own
//    signalWithStart round trip (`bare_signal_p50_ms`), the floor.
// 4. `relay_failover_s`: SIGKILL of the process relaying a workspace until a run ended right after
//    has been relayed by the other (its cursor passed the end; goal ≤ 10).
// 5. `relay_balance`: two more workers join the survivor and BENCH_SPREAD_WORKSPACES (30) new
//    workspaces appear; once every workspace of the store is relayed by exactly one of the three
//    and their shares have held still for 4 s, the largest share ÷ the fair share (workspaces ÷ 3;
//    goal ≤ 1.5), and `relay_spread_s`, from the first new workspace to then.
// 6. `new_workspace_relay_ms`: a new workspace's first command sent (its commit included) until
//    the relay's cursor has passed it, for BENCH_NEW_WORKSPACES (20) made one at a time on idle relays (median, and
//    the p90 beside it; goal ≤ 200): taken up by word of the append, not at the 2 s look.
// Postgres is DATABASE_URL (a database of its own is created and dropped), else a throwaway
// cluster that flushes every commit to disk. Not part of `npm test`. The last line is one JSON
// object.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { mapConcurrently } from '../src/relay/concurrently.js';
import { RELAY_CURSOR } from '../src/relay/index.js';
import { openPostgresStore } from '../src/store/index.js';
import { conformanceFeedbackTypes } from '../src/testing/index.js';
import { evaluateRunWorkflowId } from '../src/workflows/evaluate-run-messages.js';
import { startThrowawayCluster } from '../test/support/postgres-cluster.js';
import { percentile } from '../test/support/relay-load.js';
import {
  EVALUATIONS_PER_RUN,
  endRun,
  freshDatabase,
  startRun,
  workerEnvironment,
} from '../test/support/scale-load.js';
import {
  type DeliveredSignal,
  repeatsOf,
  runSignals,
  startWorkerProcess,
  type WorkerProcess,
} from '../test/support/worker-processes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 90);
const SIGNALS = Number(process.env.BENCH_SIGNALS ?? 30);
const JUDGE_MS = Number(process.env.BENCH_JUDGE_MS ?? 200);
const JUDGE_CONCURRENCY = Number(process.env.BENCH_JUDGE_CONCURRENCY ?? 1);
const SPREAD_WORKSPACES = Number(process.env.BENCH_SPREAD_WORKSPACES ?? 30);
const NEW_WORKSPACES = Number(process.env.BENCH_NEW_WORKSPACES ?? 20);
const CURSOR = RELAY_CURSOR;

Runtime.install({ logger: new DefaultLogger('WARN') });

const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const cluster = process.env.DATABASE_URL
  ? undefined
  : await startThrowawayCluster({ durable: true });
const database = await freshDatabase(process.env.DATABASE_URL ?? cluster?.url ?? '');
const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-scale-'));
const host = await openPostgresStore(
  { databaseUrl: database.url },
  { feedbackTypes: conformanceFeedbackTypes() },
);
const workers: WorkerProcess[] = [];

const elapsed = (since: number) => (Date.now() - since) / 1000;

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string) {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`bench:scale: gave up waiting for ${what}`);
    await sleep(20);
  }
}

/** `count` worker processes on the task queue, each with files of its own, once all poll. */
async function startWorkers(count: number, taskQueue: string): Promise<WorkerProcess[]> {
  const started = Array.from({ length: count }, () => {
    const own = join(dir, `worker-${workers.length}`);
    mkdirSync(own, { recursive: true });
    const worker = startWorkerProcess({
      cwd: own,
      env: workerEnvironment({
        databaseUrl: database.url,
        temporalAddress: env.address,
        taskQueue,
        dir: own,
        judgeMs: JUDGE_MS,
        judgeConcurrency: JUDGE_CONCURRENCY,
      }),
    });
    workers.push(worker);
    return worker;
  });
  await Promise.all(started.map((worker) => worker.ready));
  return started;
}

async function stopWorkers(stopping: WorkerProcess[]): Promise<void> {
  for (const worker of stopping) worker.child.kill('SIGTERM');
  await Promise.all(stopping.map((worker) => worker.exited));
}

/** Waits until the workspace's relay has passed `seq`. */
const relayedTo = (workspace: string, seq: number) =>
  until(
    () => host.cursor(workspace, CURSOR),
    (at) => at >= seq,
    `the relay of ${workspace}`,
  );

const signalsOf = (workspace: string, run: string) =>
  runSignals(env.client, evaluateRunWorkflowId(host.id, workspace, run));

/** Runs evaluated per second by `count` workers, and the repeated signals their runs got. */
async function throughput(count: number, tag: string) {
  const workspace = `scale-${tag}`;
  const running = await startWorkers(count, `scale-${tag}`);
  const runs = Array.from({ length: RUNS }, (_, i) => `run-${i}`);
  for (const run of runs) await startRun(host, workspace, run);
  // Every workflow started and waiting for its end: only the judging is timed.
  await relayedTo(workspace, await host.head(workspace));
  await until(
    () =>
      mapConcurrently(runs, 16, async (run) => {
        const handle = env.client.workflow.getHandle(
          evaluateRunWorkflowId(host.id, workspace, run),
        );
        return (await handle.describe()).raw.pendingWorkflowTask ? 1 : 0;
      }),
    (pending) => pending.every((n) => n === 0),
    'every workflow waiting for its end',
  );
  const started = Date.now();
  await mapConcurrently(runs, 16, (run) => endRun(host, workspace, run));
  const expected = RUNS * EVALUATIONS_PER_RUN;
  const settled = await until(
    async () =>
      (await host.ledger.evaluations(workspace)).filter((entry) => entry.state === 'recorded'),
    (entries) => entries.length >= expected,
    `${expected} verdicts`,
  );
  const times = settled.map((entry) => Date.parse(entry.settled_at));
  const first = Math.min(...times);
  const seconds = (Math.max(...times) - started) / 1000;
  const repeats = (
    await mapConcurrently(runs, 8, async (run) => repeatsOf(await signalsOf(workspace, run)))
  ).reduce((sum, n) => sum + n, 0);
  const relayers = running.filter((worker) => worker.relaying.has(workspace)).length;
  console.log(
    `${count} worker${count > 1 ? 's' : ''}: ${RUNS} runs (${expected} verdicts) in ` +
      `${seconds.toFixed(1)} s (the first after ${((first - started) / 1000).toFixed(1)} s), ` +
      `${(RUNS / seconds).toFixed(2)} runs/s ` +
      `(limit ${((count * JUDGE_CONCURRENCY * 1000) / JUDGE_MS / EVALUATIONS_PER_RUN).toFixed(2)}); ` +
      `${relayers} process relaying; ${repeats} repeated signals`,
  );
  return { running, runsPerSecond: RUNS / seconds, repeats, relayers };
}

/** Run end committed → its workflow signalled, for runs ended one at a time on an idle relay. */
async function signalLatency(workspace: string) {
  const latencies: number[] = [];
  let repeats = 0;
  for (let i = 0; i < SIGNALS; i++) {
    const run = `latency-${i}`;
    await startRun(host, workspace, run);
    await relayedTo(workspace, await host.head(workspace));
    // Idle long enough that the relay's next poll is far: only a wake brings it sooner.
    await sleep(400);
    const seq = await endRun(host, workspace, run);
    const committed = Date.now();
    await relayedTo(workspace, seq);
    // An overloaded dev server may show the signal in the history a moment after it took it.
    const signals: DeliveredSignal[] = await until(
      () => signalsOf(workspace, run),
      (delivered) => delivered.some((signal) => signal.seq === seq),
      `the end signal of ${run}`,
    );
    const ended = signals.find((signal) => signal.seq === seq);
    if (ended === undefined) throw new Error(`bench:scale: ${run} has no end signal`);
    latencies.push(ended.at - committed);
    repeats += repeatsOf(signals);
  }
  return { latencies, repeats };
}

/** A workspace of one thread, committed. */
const newWorkspace = async (workspace: string) => {
  const outcome = await host.execute({
    workspace_id: workspace,
    actor: { kind: 'system', name: 'bench' },
    command: { type: 'create_thread', thread_id: 't' },
  });
  if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
};

/** Each running worker's share of the store's workspaces, once each is relayed by exactly one. */
async function spreadOver(running: readonly WorkerProcess[]) {
  const workspaces = await host.workspaces();
  let last = '';
  let stillSince = Date.now();
  return until(
    async () => {
      const shares = running.map((worker) => workspaces.filter((ws) => worker.relaying.has(ws)));
      const held = shares.flat();
      const key = shares.map((mine) => mine.length).join(',');
      if (key !== last) {
        last = key;
        stillSince = Date.now();
      }
      const whole = held.length === workspaces.length && new Set(held).size === held.length;
      return { shares: shares.map((mine) => mine.length), whole, still: Date.now() - stillSince };
    },
    ({ whole, still }) => whole && still >= 4000,
    'the workspaces spread over the workers',
  ).then(({ shares }) => ({ shares, workspaces: workspaces.length }));
}

/** New workspaces one at a time: first event committed → the relay's cursor past it. */
async function newWorkspaceDelays(): Promise<number[]> {
  const delays: number[] = [];
  for (let i = 0; i < NEW_WORKSPACES; i++) {
    const workspace = `scale-new-${i}`;
    // From before the command is sent: the commit's own round trip counts too (an upper bound).
    const sent = performance.now();
    await newWorkspace(workspace);
    for (;;) {
      if ((await host.cursor(workspace, CURSOR)) >= 1) break;
      if (performance.now() - sent > 60_000) throw new Error(`${workspace} was never relayed`);
      await sleep(2);
    }
    delays.push(performance.now() - sent);
    await sleep(300);
  }
  return delays;
}

/** The floor: a signalWithStart from here to a workflow no worker runs, round trip. */
async function bareSignals(): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < SIGNALS; i++) {
    const start = performance.now();
    await env.client.workflow.signalWithStart('bareSignalTarget', {
      workflowId: `bare-signal-${i}`,
      taskQueue: 'bench-scale-bare',
      signal: 'ping',
      signalArgs: [i],
    });
    times.push(performance.now() - start);
    await sleep(50);
  }
  return times;
}

try {
  console.log(
    `scale: ${RUNS} runs × ${EVALUATIONS_PER_RUN} judges of ${JUDGE_MS} ms, ` +
      `${JUDGE_CONCURRENCY} judge calls at once per process`,
  );
  const one = await throughput(1, 'one');
  await stopWorkers(one.running);
  const two = await throughput(2, 'two');

  const latencyWorkspace = 'scale-latency';
  const latency = await signalLatency(latencyWorkspace);
  const bare = await bareSignals();
  const signalP50 = percentile(latency.latencies, 50);
  const bareP50 = percentile(bare, 50);
  console.log(
    `run end → its workflow's signal: p50 ${signalP50.toFixed(0)} ms, p90 ` +
      `${percentile(latency.latencies, 90).toFixed(0)} ms, max ` +
      `${percentile(latency.latencies, 100).toFixed(0)} ms over ${SIGNALS} runs; a bare ` +
      `signalWithStart p50 ${bareP50.toFixed(0)} ms`,
  );

  const holder = two.running.find((worker) => worker.relaying.has(latencyWorkspace));
  if (holder === undefined) throw new Error('bench:scale: no process relays the workspace');
  holder.child.kill('SIGKILL');
  await holder.exited;
  const killed = Date.now();
  const run = 'after-kill';
  await startRun(host, latencyWorkspace, run);
  await relayedTo(latencyWorkspace, await endRun(host, latencyWorkspace, run));
  const failoverSeconds = elapsed(killed);
  const failoverRepeats = repeatsOf(await signalsOf(latencyWorkspace, run));
  console.log(
    `relay failover: ${failoverSeconds.toFixed(2)} s from SIGKILL of pid ${holder.pid} to a ` +
      `new run's end relayed by the other process; ${failoverRepeats} repeated signals`,
  );

  // The survivor and two more: three workers, and new workspaces for them to share.
  const survivor = two.running.filter((worker) => worker !== holder);
  const joined = await startWorkers(2, 'scale-two');
  const three = [...survivor, ...joined];
  const spreading = Date.now();
  await mapConcurrently(
    Array.from({ length: SPREAD_WORKSPACES }, (_, i) => `scale-spread-${i}`),
    8,
    newWorkspace,
  );
  const spread = await spreadOver(three);
  const spreadSeconds = (Date.now() - spreading - 4000) / 1000;
  const fair = spread.workspaces / three.length;
  const balance = Math.max(...spread.shares) / fair;
  console.log(
    `relay spread: ${spread.workspaces} workspaces over 3 workers as ${spread.shares.join(' / ')} ` +
      `(fair ${fair.toFixed(1)}): largest share ÷ fair share ${balance.toFixed(2)}, settled ` +
      `${spreadSeconds.toFixed(1)} s after the first new workspace`,
  );
  const arrivals = await newWorkspaceDelays();
  const arrivalP50 = percentile(arrivals, 50);
  const arrivalP90 = percentile(arrivals, 90);
  console.log(
    `new workspace → its first event relayed: p50 ${arrivalP50.toFixed(0)} ms, p90 ` +
      `${arrivalP90.toFixed(0)} ms, max ${percentile(arrivals, 100).toFixed(0)} ms over ` +
      `${NEW_WORKSPACES} workspaces`,
  );

  const ratio = two.runsPerSecond / one.runsPerSecond;
  const duplicates = (two.repeats + latency.repeats) / (RUNS + SIGNALS);
  console.log(
    `two workers vs one: ${ratio.toFixed(2)}× (${two.runsPerSecond.toFixed(2)} vs ` +
      `${one.runsPerSecond.toFixed(2)} runs/s)`,
  );
  console.log(
    JSON.stringify({
      bench: 'scale',
      runs: RUNS,
      judge_ms: JUDGE_MS,
      judge_concurrency_per_process: JUDGE_CONCURRENCY,
      one_worker_runs_per_s: Number(one.runsPerSecond.toFixed(2)),
      two_workers_runs_per_s: Number(two.runsPerSecond.toFixed(2)),
      two_workers_vs_one: Number(ratio.toFixed(2)),
      relay_failover_s: Number(failoverSeconds.toFixed(2)),
      relay_signal_p50_ms: Math.round(signalP50),
      bare_signal_p50_ms: Math.round(bareP50),
      duplicate_signals: Number(duplicates.toFixed(3)),
      failover_repeated_signals: failoverRepeats,
      relay_balance: Number(balance.toFixed(2)),
      relay_spread_shares: spread.shares,
      relay_spread_s: Number(spreadSeconds.toFixed(1)),
      new_workspace_relay_ms: Math.round(arrivalP50),
      new_workspace_relay_p90_ms: Math.round(arrivalP90),
    }),
  );
} finally {
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  await host.close();
  await database.drop();
  cluster?.stop();
  await env.teardown();
  rmSync(dir, { recursive: true, force: true });
}

// npm run bench:relay — how far the trigger relay trails the log under a steady load, on Postgres
// against SQLite (the baseline) in the same process, on one Temporal dev server.
//
// For each backend: a host app appends commands at a steady rate (BENCH_RATE a second, default
// 50, for BENCH_SECONDS, default 20) through a store of its own, as another process would, while
// the engine's side (a trigger relay, and a worker evaluating each run with one turn evaluator)
// uses another store on the same database. Every 20 ms the host reads the relay's saved cursor:
// an event's lag is the time from its append to the cursor passing it. It reports the lag's p50,
// p99 and max, how far behind the relay fell, and run end → verdict settled. Postgres is
// DATABASE_URL, else a throwaway cluster that flushes every commit to disk as a production server
// does (the tests' clusters skip fsync, which hides what a commit per event costs).
//
// Then the catch-up after a restart, on SQLite: a backlog of BENCH_BACKLOG_RUNS runs (default
// 300, six events each) is appended while no relay runs, as fast as the host can; then a relay
// starts from its cursor and drains it while the worker judges the runs. `relay_catch_up_vs_append`
// is events/s drained over events/s appended (goal ≥ 1). Before it, the bench starts as many runs'
// workflows itself, the relay's way but without reading the log: `direct_start_runs_per_s` is
// the server's own pace for that work, the ceiling of any relay here; `relay_vs_direct_starts` is
// the drain's runs/s over it, and `catch_up_ceiling_vs_append` the catch-up that ceiling allows.
// Not part of `npm test`; sized for 2 cores (about a minute). The last line is one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import pg from 'pg';
import { z } from 'zod';
import { createActivities } from '../src/activities/create-activities.js';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { createFeedbackTypeRegistry, defineFeedbackType } from '../src/core/index.js';
import {
  createEvaluatorRegistry,
  defineEvaluator,
  everyTargetRules,
} from '../src/evaluators/index.js';
import { mapConcurrently } from '../src/relay/concurrently.js';
import { TriggerRelay } from '../src/relay/index.js';
import {
  openPostgresStore,
  openSqliteStore,
  type Store,
  type StoreOptions,
} from '../src/store/index.js';
import { InMemoryScoreSink } from '../src/testing/index.js';
import { bundleWorkflows, createWorker } from '../src/worker/create-worker.js';
import {
  evaluateRunWorkflowId,
  type RunEvent,
  runEventSignal,
} from '../src/workflows/evaluate-run-messages.js';
import { startThrowawayCluster } from '../test/support/postgres-cluster.js';
import { percentile, runCommands, steadyLoad } from '../test/support/relay-load.js';

async function dropSchema(url: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
  await client.end();
}

const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CURSOR = 'trigger-relay';
const BACKLOG_RUNS = Number(process.env.BENCH_BACKLOG_RUNS ?? 300);

Runtime.install({ logger: new DefaultLogger('WARN') });
const quality = defineFeedbackType({
  name: 'bench_turn',
  targets: ['turn'],
  schema: z.object({ messages: z.int().min(0) }),
});
const turnLength = defineEvaluator({
  name: 'turn_length',
  version: '1',
  feedbackType: quality,
  targets: ['turn'],
  source: 'HARNESS',
  evaluate: (subject) => ({ messages: subject.kind === 'turn' ? subject.messages.length : 0 }),
});
const evaluators = createEvaluatorRegistry([turnLength]);
const rules = everyTargetRules([turnLength]);
const feedbackTypes = createFeedbackTypeRegistry([quality]);
const storeOptions: StoreOptions = { feedbackTypes, evaluators };

/** A worker judging each run with the turn evaluator, its scores kept in memory. */
function benchWorker(env: TestWorkflowEnvironment, taskQueue: string, store: Store) {
  const sink = new InMemoryScoreSink();
  return createWorker({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: bundle,
    activities: createActivities({
      store,
      evaluators,
      feedbackTypes,
      scoreSink: sink,
      scoreReader: sink,
    }),
  });
}

interface Measured {
  events: number;
  lagP50: number;
  lagP99: number;
  lagMax: number;
  /** The most events appended and not yet relayed at any moment. */
  maxBehind: number;
  verdictP50: number;
}

async function measure(
  name: string,
  env: TestWorkflowEnvironment,
  open: () => Promise<Store>,
): Promise<Measured> {
  const ws = `bench-relay-${name}`;
  const taskQueue = `bench-relay-${name}`;
  const engineStore = await open();
  const host = await open();
  const worker = await benchWorker(env, taskQueue, engineStore);
  const running = worker.run();
  const relay = await new TriggerRelay({
    store: engineStore,
    client: env.client,
    taskQueue,
    workspaceId: ws,
    rules,
  }).follow();

  const lag = await steadyLoad(host, {
    workspaceId: ws,
    cursor: CURSOR,
    rate: RATE,
    seconds: SECONDS,
  });
  const { endedAt } = lag;

  // Run end → its verdict settled in the ledger, for every run that ended.
  const deadline = Date.now() + 60_000;
  let settled = await engineStore.ledger.evaluations(ws);
  while (settled.length < endedAt.size && Date.now() < deadline) {
    await sleep(200);
    settled = await engineStore.ledger.evaluations(ws);
  }
  const verdicts = settled.flatMap((entry) => {
    const run = (entry.target as { run_id?: string }).run_id ?? '';
    const ended = endedAt.get(run);
    return ended === undefined ? [] : [Date.parse(entry.settled_at) - ended];
  });

  await relay.close();
  worker.shutdown();
  await running;
  await engineStore.close();
  await host.close();
  const measured = {
    events: lag.events,
    lagP50: percentile(lag.lagsMs, 50),
    lagP99: percentile(lag.lagsMs, 99),
    lagMax: percentile(lag.lagsMs, 100),
    maxBehind: lag.maxBehind,
    verdictP50: percentile(verdicts, 50),
  };
  console.log(
    `${name}: ${lag.events} events in ${lag.loadSeconds.toFixed(1)} s ` +
      `(${(lag.events / lag.loadSeconds).toFixed(0)}/s); ` +
      `relay lag p50 ${measured.lagP50.toFixed(0)} ms, p99 ${measured.lagP99.toFixed(0)} ms, ` +
      `max ${measured.lagMax.toFixed(0)} ms; at most ${lag.maxBehind} events behind ` +
      `(${lag.behindAtEnd} when the load stopped); run end → verdict p50 ` +
      `${measured.verdictP50.toFixed(0)} ms (${verdicts.length}/${endedAt.size} runs)`,
  );
  return measured;
}

interface CatchUp {
  events: number;
  appendPerSecond: number;
  drainPerSecond: number;
  drainRunsPerSecond: number;
  /** Runs a second the server starts when the bench starts their workflows itself. */
  directRunsPerSecond: number;
}

/** A backlog appended with no relay running, then drained by a relay started from its cursor. */
async function catchUp(env: TestWorkflowEnvironment, store: Store): Promise<CatchUp> {
  const ws = 'bench-relay-catch-up';
  const taskQueue = ws;
  const system = { kind: 'system', name: 'system' };
  const appendStarted = performance.now();
  let events = 0;
  // Eight agents, each posting its runs' commands in order, as the steady load does.
  await Promise.all(
    Array.from({ length: 8 }, async (_, agent) => {
      for (let run = agent; run < BACKLOG_RUNS; run += 8) {
        for (const command of runCommands(`${ws}-${run}`)) {
          const outcome = await store.executeUnchecked({
            workspace_id: ws,
            actor: system,
            command,
          });
          if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
          events += outcome.events.length;
        }
      }
    }),
  );
  const appendSeconds = (performance.now() - appendStarted) / 1000;
  const worker = await benchWorker(env, taskQueue, store);
  const running = worker.run();
  const directRunsPerSecond = await directStarts(env, store, taskQueue);
  const relay = new TriggerRelay({ store, client: env.client, taskQueue, workspaceId: ws, rules });
  const drainStarted = performance.now();
  const drained = await relay.drain();
  const drainSeconds = (performance.now() - drainStarted) / 1000;
  // The worker stops once the drained runs are judged, not while the server still dispatches them.
  await Promise.all(
    Array.from({ length: BACKLOG_RUNS }, (_, run) =>
      env.client.workflow.getHandle(evaluateRunWorkflowId(store.id, ws, `${ws}-${run}`)).result(),
    ),
  );
  worker.shutdown();
  await running;
  const measured = {
    events: drained,
    appendPerSecond: events / appendSeconds,
    drainPerSecond: drained / drainSeconds,
    drainRunsPerSecond: BACKLOG_RUNS / drainSeconds,
    directRunsPerSecond,
  };
  console.log(
    `catch-up (sqlite): ${events} events appended at ${measured.appendPerSecond.toFixed(0)}/s with ` +
      `no relay; a relay from its cursor drained ${drained} at ${measured.drainPerSecond.toFixed(0)}/s ` +
      `(${(measured.drainPerSecond / measured.appendPerSecond).toFixed(2)}×): ` +
      `${measured.drainRunsPerSecond.toFixed(0)} runs/s, against ${directRunsPerSecond.toFixed(0)} ` +
      'runs/s when the bench starts the same workflows itself',
  );
  return measured;
}

/**
 * The server's own pace for what a drain asks of it: BACKLOG_RUNS runs' workflows started by the
 * bench itself, with the events the relay would send, as many at once as the relay starts (64),
 * while the worker judges them; runs started per second. The log is not read, so this is the
 * ceiling of any relay on this server. It waits for those runs' verdicts before returning, so
 * the drain after it has the worker to itself.
 */
async function directStarts(
  env: TestWorkflowEnvironment,
  store: Store,
  taskQueue: string,
): Promise<number> {
  const ws = 'bench-relay-direct';
  const system = { kind: 'system', name: 'system' };
  const runs = Array.from({ length: BACKLOG_RUNS }, (_, i) => `${ws}-${i}`);
  const eventsOf = new Map<string, RunEvent[]>();
  for (const run of runs) {
    const seqs: number[] = [];
    for (const command of runCommands(run)) {
      const outcome = await store.executeUnchecked({ workspace_id: ws, actor: system, command });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
      seqs.push(outcome.events[0]?.seq ?? 0);
    }
    // runCommands: create_thread, start_run, three answers, end_run.
    const [, started = 0, a1 = 0, a2 = 0, a3 = 0, ended = 0] = seqs;
    eventsOf.set(run, [
      { seq: started, type: 'started' },
      ...[a1, a2, a3].map(
        (seq, i): RunEvent => ({
          seq,
          type: 'message',
          message_id: `a${i + 1}`,
          role: 'assistant',
        }),
      ),
      { seq: ended, type: 'ended', status: 'completed' },
    ]);
  }
  const plan = {
    turn: [{ name: turnLength.name, version: turnLength.version }],
    message: [],
    artifact: [],
  };
  const started = performance.now();
  const handles = await mapConcurrently(runs, 64, (run) =>
    env.client.workflow.signalWithStart('evaluateRun', {
      workflowId: evaluateRunWorkflowId(store.id, ws, run),
      taskQueue,
      args: [{ workspaceId: ws, runId: run, threadId: run, plan }],
      signal: runEventSignal,
      signalArgs: eventsOf.get(run) ?? [],
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(handles.map((handle) => handle.result()));
  return BACKLOG_RUNS / seconds;
}

const bundle = { code: (await bundleWorkflows()).code };
const binaries = await ensureTemporalBinaries();
const env = await TestWorkflowEnvironment.createLocal({
  server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
});
const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-relay-'));
const cluster = process.env.DATABASE_URL
  ? undefined
  : await startThrowawayCluster({ durable: true });
const databaseUrl = process.env.DATABASE_URL ?? cluster?.url ?? '';
const schema = `bench_relay_${process.pid}`;
try {
  console.log(`relay: ${RATE} commands/s for ${SECONDS} s per backend`);
  const sqlite = await measure('sqlite', env, async () =>
    openSqliteStore(join(dir, 'bench.db'), storeOptions),
  );
  const postgres = await measure('postgres', env, () =>
    openPostgresStore({ databaseUrl, schema }, storeOptions),
  );
  const backlogStore = openSqliteStore(join(dir, 'backlog.db'), storeOptions);
  const backlog = await catchUp(env, backlogStore);
  await backlogStore.close();
  console.log(
    `relay lag p99: postgres ${postgres.lagP99.toFixed(0)} ms vs sqlite ${sqlite.lagP99.toFixed(0)} ms ` +
      `(${(postgres.lagP99 / Math.max(sqlite.lagP99, 1)).toFixed(2)}×)`,
  );
  console.log(
    JSON.stringify({
      bench: 'relay',
      commands_per_second: RATE,
      postgres_lag_p99_ms: Math.round(postgres.lagP99),
      sqlite_lag_p99_ms: Math.round(sqlite.lagP99),
      postgres_vs_sqlite_lag_p99: Number((postgres.lagP99 / Math.max(sqlite.lagP99, 1)).toFixed(2)),
      postgres_max_behind: postgres.maxBehind,
      sqlite_max_behind: sqlite.maxBehind,
      postgres_verdict_p50_ms: Math.round(postgres.verdictP50),
      sqlite_verdict_p50_ms: Math.round(sqlite.verdictP50),
      backlog_events: backlog.events,
      append_events_per_s: Math.round(backlog.appendPerSecond),
      relay_drain_events_per_s: Math.round(backlog.drainPerSecond),
      relay_catch_up_vs_append: Number(
        (backlog.drainPerSecond / backlog.appendPerSecond).toFixed(2),
      ),
      relay_drain_runs_per_s: Math.round(backlog.drainRunsPerSecond),
      direct_start_runs_per_s: Math.round(backlog.directRunsPerSecond),
      relay_vs_direct_starts: Number(
        (backlog.drainRunsPerSecond / backlog.directRunsPerSecond).toFixed(2),
      ),
      // The catch-up a relay that cost nothing would reach: the direct starts' runs/s, in events.
      catch_up_ceiling_vs_append: Number(
        (
          (backlog.directRunsPerSecond * (backlog.events / BACKLOG_RUNS)) /
          backlog.appendPerSecond
        ).toFixed(2),
      ),
    }),
  );
} finally {
  await env.teardown();
  if (cluster === undefined) await dropSchema(databaseUrl, schema);
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
}

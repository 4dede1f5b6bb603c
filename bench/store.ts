// npm run bench:store — what the store costs over the bare driver.
//
// For SQLite (a WAL file) and Postgres (DATABASE_URL, else a throwaway cluster), it appends
// evaluator feedback through `store.execute` (parse, decide, lock, load, append, update views,
// commit), and inserts the same event rows one by one through the same driver into a bare table,
// in the same process, in alternating chunks of CHUNK (so a busy moment on a shared machine slows
// both alike), and reports the per-row cost as a ratio: append / bare (1 would be free; the goal
// is ≤ 2). On Postgres it also runs 8 writers at once, each on a workspace of its own, against one
// writer (`postgres_8_workspaces_vs_1`, appends per second, goal ≥ 4), alternating too, on a
// server that flushes every commit, with the ratio the machine's cores allow
// (`postgres_8_workspaces_cpu_bound`).
// It also measures subscribe: events per second delivered to a listener replaying a log.
// The last line is one JSON object. Not part of `npm test`.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Envelope } from '../src/core/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../src/store/index.js';
import { conformanceFeedbackTypes } from '../src/testing/index.js';
import { startThrowawayCluster } from '../test/support/postgres-cluster.js';

const APPENDS = Number(process.env.BENCH_APPENDS ?? 8000);
const ROUNDS = 3;
const CHUNK = 250;
const WRITERS = 8;
const SUBSCRIBE_EVENTS = Number(process.env.BENCH_SUBSCRIBE_EVENTS ?? 20_000);

// The conformance types: the benchmark gives `helpfulness` feedback, as the cases do.
const feedbackTypes = conformanceFeedbackTypes();
const system = { kind: 'system', name: 'system' };
const evaluator = { kind: 'evaluator', name: 'bench', version: '1' };

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function prepare(store: Store, workspace_id: string) {
  await store.executeUnchecked({
    workspace_id,
    actor: system,
    command: { type: 'create_thread', thread_id: 't1' },
  });
  await store.executeUnchecked({
    workspace_id,
    actor: system,
    command: { type: 'start_run', run_id: 'r1', thread_id: 't1', trace_id: 'trace' },
  });
}

/** Appends `count` feedback events; returns the elapsed ms and the envelopes appended. */
async function appendFeedback(store: Store, workspace_id: string, count: number) {
  const envelopes: Envelope[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const outcome = await store.executeUnchecked({
      workspace_id,
      actor: evaluator,
      command: {
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'turn', run_id: 'r1' },
        value: { rating: (i % 5) + 1, reason: `verdict ${i}` },
      },
    });
    if (outcome.type !== 'recorded') throw new Error(`append refused: ${outcome.message}`);
    envelopes.push(...outcome.events);
  }
  return { ms: performance.now() - started, envelopes };
}

const BARE_TABLE = `CREATE TABLE IF NOT EXISTS bare_events (
  workspace_id TEXT NOT NULL, seq BIGINT NOT NULL, id TEXT NOT NULL UNIQUE, ts TEXT NOT NULL,
  type TEXT NOT NULL, thread_id TEXT, run_id TEXT, actor TEXT NOT NULL, event TEXT NOT NULL,
  PRIMARY KEY (workspace_id, seq))`;
const rowOf = (e: Envelope, round: number) => [
  `${e.workspace_id}-bare-${round}`,
  e.seq,
  `${e.id}-bare-${round}`,
  e.ts,
  e.event.type,
  e.thread_id,
  e.run_id,
  JSON.stringify(e.actor),
  JSON.stringify(e.event),
];

async function measure(
  label: string,
  open: () => Promise<Store>,
  bareInsert: (rows: unknown[][]) => Promise<number>,
) {
  const store = await open();
  const ratios: number[] = [];
  const perAppendMs: number[] = [];
  try {
    await prepare(store, 'warmup');
    await appendFeedback(store, 'warmup', 200);
    for (let round = 0; round < ROUNDS; round++) {
      const workspace_id = `bench-${label}-${round}`;
      await prepare(store, workspace_id);
      let appendMs = 0;
      let bareMs = 0;
      for (let done = 0; done < APPENDS; done += CHUNK) {
        const appended = await appendFeedback(store, workspace_id, Math.min(CHUNK, APPENDS - done));
        appendMs += appended.ms;
        bareMs += await bareInsert(appended.envelopes.map((e) => rowOf(e, round)));
      }
      ratios.push(appendMs / bareMs);
      perAppendMs.push(appendMs / APPENDS);
      console.log(
        `${label} round ${round + 1}: ${APPENDS} feedback appends ${appendMs.toFixed(0)} ms ` +
          `(${((APPENDS / appendMs) * 1000).toFixed(0)}/s), bare inserts ${bareMs.toFixed(0)} ms, ` +
          `cost ${(appendMs / bareMs).toFixed(2)}x`,
      );
    }
    const subscribePerS = await measureSubscribe(store, label);
    const split = label === 'sqlite' ? await sqlShare(store) : undefined;
    return { ratio: median(ratios), perAppendMs: median(perAppendMs), subscribePerS, split };
  } finally {
    await store.close();
  }
}

/**
 * Where a SQLite append's time goes: one more round of appends (apart from the timed rounds),
 * timing every call into better-sqlite3's statements (SQLite runs synchronously inside them)
 * against the round's whole time; the rest is parsing, deciding, JSON and the port's awaits.
 */
async function sqlShare(store: Store) {
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
    'run' | 'all' | 'get',
    (...args: unknown[]) => unknown
  >;
  probe.close();
  let inSqlite = 0;
  const originals = { run: statement.run, all: statement.all, get: statement.get };
  for (const name of ['run', 'all', 'get'] as const) {
    const original = originals[name];
    statement[name] = function timed(this: unknown, ...args: unknown[]) {
      const started = performance.now();
      try {
        return original.apply(this, args);
      } finally {
        inSqlite += performance.now() - started;
      }
    };
  }
  try {
    await prepare(store, 'bench-sqlite-split');
    inSqlite = 0;
    const { ms } = await appendFeedback(store, 'bench-sqlite-split', APPENDS);
    return { sqlMs: inSqlite / APPENDS, otherMs: (ms - inSqlite) / APPENDS };
  } finally {
    Object.assign(statement, originals);
  }
}

/** What one phase of appends cost: its wall time and CPU. */
interface PhaseCost {
  ms: number;
  nodeCpuMs: number;
  /** The Postgres server's CPU (its processes, read from /proc); null where it is not local. */
  serverCpuMs: number | null;
}

/** Measures `work`'s wall time, and the CPU this process and the server used meanwhile. */
async function phaseCost(
  serverPort: number | null,
  work: () => Promise<unknown>,
): Promise<PhaseCost> {
  const cpu = process.cpuUsage();
  const server = serverPort === null ? null : serverCpuMs(serverPort);
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const serverAfter = serverPort === null ? null : serverCpuMs(serverPort);
  return {
    ms,
    nodeCpuMs: (used.user + used.system) / 1000,
    serverCpuMs: server === null || serverAfter === null ? null : serverAfter - server,
  };
}

/**
 * CPU ms used so far by the local Postgres listening on `port`: its postmaster (with the
 * children it reaped) and its live children, from /proc; null if it cannot be found.
 */
function serverCpuMs(port: number): number | null {
  const ticks = 100; // USER_HZ on Linux
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
        return { pid, cmdline, fields };
      } catch {
        return undefined; // it ended meanwhile
      }
    })
    .filter((stat) => stat !== undefined);
  const postmaster = stats.find(
    ({ cmdline }) =>
      cmdline.some((arg) => arg.endsWith('postgres')) && cmdline.includes(String(port)),
  );
  if (postmaster === undefined) return null;
  // Fields after the command: state ppid ... utime(12) stime(13) cutime(14) cstime(15).
  const cpu = (fields: string[], from: number, to: number) =>
    fields.slice(from, to).reduce((sum, value) => sum + Number(value), 0);
  let total = cpu(postmaster.fields, 11, 15);
  for (const { fields } of stats) {
    if (fields[1] === postmaster.pid) total += cpu(fields, 11, 13);
  }
  return (total / ticks) * 1000;
}

/**
 * Appends per second of WRITERS concurrent writers, each on a workspace of its own, against one
 * writer; the two alternate over ROUNDS rounds, and the median ratio is returned. On a server
 * that flushes every commit (the bench's own durable cluster: Postgres flushes the WAL of commits
 * that arrive together at once), with the ratio the machine's cores allow: one writer's wall
 * time per append over the CPU time (this process's and the server's) an append takes when 8
 * run at once, times the cores.
 */
async function measureWorkspaces(store: Store, serverPort: number | null) {
  const perWriter = Math.max(CHUNK, Math.floor(APPENDS / 4 / WRITERS));
  const appends = perWriter * WRITERS;
  const ratios: number[] = [];
  const bounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const workspaces = Array.from({ length: WRITERS }, (_, i) => `bench-par-${round}-${i}`);
    for (const workspace of workspaces) await prepare(store, workspace);
    await prepare(store, `bench-one-${round}`);
    const one = await phaseCost(serverPort, () =>
      appendFeedback(store, `bench-one-${round}`, appends),
    );
    const many = await phaseCost(serverPort, () =>
      Promise.all(workspaces.map((workspace) => appendFeedback(store, workspace, perWriter))),
    );
    const ratio = one.ms / many.ms;
    ratios.push(ratio);
    const cpuPerAppend =
      many.serverCpuMs === null ? null : (many.nodeCpuMs + many.serverCpuMs) / appends;
    const bound =
      cpuPerAppend === null ? null : (cpus().length * (one.ms / appends)) / cpuPerAppend;
    if (bound !== null) bounds.push(bound);
    console.log(
      `postgres round ${round + 1}: 1 writer ${((appends / one.ms) * 1000).toFixed(0)}/s, ` +
        `${WRITERS} writers on ${WRITERS} workspaces ${((appends / many.ms) * 1000).toFixed(0)}/s, ` +
        `${ratio.toFixed(2)}x; ` +
        (cpuPerAppend === null
          ? 'server CPU not readable'
          : `CPU per append with ${WRITERS} ${cpuPerAppend.toFixed(3)} ms ` +
            `(node ${(many.nodeCpuMs / appends).toFixed(3)}, server ${((many.serverCpuMs ?? 0) / appends).toFixed(3)}), ` +
            `so ${cpus().length} cores allow ${bound?.toFixed(2)}x`),
    );
  }
  return {
    ratio: median(ratios),
    cpuBound: bounds.length > 0 ? median(bounds) : null,
  };
}

/** Replays a log of SUBSCRIBE_EVENTS events to a listener, then follows one more. */
async function measureSubscribe(store: Store, label: string) {
  const workspace_id = `bench-${label}-subscribe`;
  await prepare(store, workspace_id);
  await appendFeedback(store, workspace_id, SUBSCRIBE_EVENTS - 2);
  let delivered = 0;
  const started = performance.now();
  let caughtUp: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    caughtUp = resolve;
  });
  const subscription = store.subscribe({ workspace_id }, () => {
    delivered += 1;
    if (delivered === SUBSCRIBE_EVENTS) caughtUp();
  });
  await done;
  const ms = performance.now() - started;
  await subscription.close();
  const perS = (SUBSCRIBE_EVENTS / ms) * 1000;
  console.log(
    `${label} subscribe: ${SUBSCRIBE_EVENTS} events replayed in ${ms.toFixed(0)} ms (${perS.toFixed(0)}/s)`,
  );
  return perS;
}

/** The port of a server on this machine, whose CPU the bench can read; null for another host. */
function localPort(url: string): number | null {
  const { hostname, port } = new URL(url);
  return ['127.0.0.1', 'localhost', '::1'].includes(hostname) ? Number(port || 5432) : null;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-'));
  const cluster = process.env.DATABASE_URL ? undefined : await startThrowawayCluster();
  const databaseUrl = process.env.DATABASE_URL ?? cluster?.url ?? '';
  const schema = `evalflow_bench_${process.pid}`;
  try {
    console.log(
      `store benchmark: ${APPENDS} appends x ${ROUNDS} rounds per adapter, ${SUBSCRIBE_EVENTS} events subscribed`,
    );

    const bareSqlite = new Database(join(dir, 'bare.db'));
    bareSqlite.pragma('journal_mode = WAL');
    bareSqlite.pragma('synchronous = NORMAL');
    bareSqlite.exec(BARE_TABLE);
    const insertSqlite = bareSqlite.prepare(
      'INSERT INTO bare_events (workspace_id, seq, id, ts, type, thread_id, run_id, actor, event) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const sqlite = await measure(
      'sqlite',
      async () => openSqliteStore(join(dir, 'store.db'), { feedbackTypes }),
      async (rows) => {
        const started = performance.now();
        for (const row of rows) insertSqlite.run(...row);
        return performance.now() - started;
      },
    );
    bareSqlite.close();

    const bareClient = new pg.Client({ connectionString: databaseUrl });
    await bareClient.connect();
    await bareClient.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await bareClient.query(`SET search_path = ${schema}`);
    await bareClient.query(BARE_TABLE);
    const postgres = await measure(
      'postgres',
      () => openPostgresStore({ databaseUrl, schema }, { feedbackTypes }),
      async (rows) => {
        const started = performance.now();
        for (const row of rows) {
          await bareClient.query(
            'INSERT INTO bare_events (workspace_id, seq, id, ts, type, thread_id, run_id, actor, event) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
            row,
          );
        }
        return performance.now() - started;
      },
    );
    await bareClient.query(`DROP SCHEMA ${schema} CASCADE`);
    await bareClient.end();

    // Grouping commits is about flushes, so the writers run on a server that flushes every
    // commit: a durable cluster of the bench's own (or DATABASE_URL's, as it is configured).
    const durable = process.env.DATABASE_URL
      ? undefined
      : await startThrowawayCluster({ durable: true });
    const durableUrl = durable?.url ?? databaseUrl;
    const durableStore = await openPostgresStore(
      { databaseUrl: durableUrl, schema },
      { feedbackTypes },
    );
    const probe = new pg.Client({ connectionString: durableUrl });
    await probe.connect();
    let parallel: Awaited<ReturnType<typeof measureWorkspaces>>;
    try {
      parallel = await measureWorkspaces(durableStore, localPort(durableUrl));
      await probe.query(`DROP SCHEMA ${schema} CASCADE`);
    } finally {
      await probe.end();
      await durableStore.close();
      durable?.stop();
    }

    console.log(
      `sqlite: ${sqlite.perAppendMs.toFixed(3)} ms per append, ${sqlite.ratio.toFixed(2)}x a bare insert; ` +
        `postgres: ${postgres.perAppendMs.toFixed(3)} ms per append, ${postgres.ratio.toFixed(2)}x a bare insert; ` +
        `subscribe ${sqlite.subscribePerS.toFixed(0)}/s (sqlite), ${postgres.subscribePerS.toFixed(0)}/s (postgres)`,
    );
    // The append's SQLite calls alone against the bare insert: what the schema can reach.
    const bareSqliteMs = sqlite.perAppendMs / sqlite.ratio;
    const split = sqlite.split ?? { sqlMs: 0, otherMs: 0 };
    console.log(
      `sqlite append, split: ${split.sqlMs.toFixed(3)} ms in SQLite calls ` +
        `(${(split.sqlMs / bareSqliteMs).toFixed(2)}x a bare insert's ${bareSqliteMs.toFixed(3)} ms), ` +
        `${split.otherMs.toFixed(3)} ms in the rest (parse, decide, JSON, the port's awaits)`,
    );
    const sqliteCost = Number(sqlite.ratio.toFixed(2));
    const postgresCost = Number(postgres.ratio.toFixed(2));
    console.log(
      JSON.stringify({
        bench: 'store',
        sqlite_append_cost_vs_bare: sqliteCost,
        postgres_append_cost_vs_bare: postgresCost,
        sqlite_append_sql_vs_bare: Number((split.sqlMs / bareSqliteMs).toFixed(2)),
        sqlite_append_other_vs_bare: Number((split.otherMs / bareSqliteMs).toFixed(2)),
        postgres_8_workspaces_vs_1: Number(parallel.ratio.toFixed(2)),
        postgres_8_workspaces_cpu_bound:
          parallel.cpuBound === null ? null : Number(parallel.cpuBound.toFixed(2)),
        // The earlier names of the same two costs.
        sqlite_append_vs_bare: sqliteCost,
        postgres_append_vs_bare: postgresCost,
        subscribe_events_per_s: Math.round(sqlite.subscribePerS),
      }),
    );
  } finally {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

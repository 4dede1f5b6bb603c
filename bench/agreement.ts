// npm run bench:agreement — agreement over stored verdicts against reading the same rows.
//
// For SQLite (a WAL file) and Postgres (DATABASE_URL, else a throwaway cluster), a workspace holds
// 100,000 message targets (BENCH_AGREEMENT_TARGETS), each judged by politeness@2 (a tenth twice:
// a later generation) and reviewed by grace (a fifth by ada too, agreeing with her, so every
// target has a majority): 100,000 matched targets, 230,000 verdict rows. It then times, in
// alternating rounds in the same process (a busy moment on a shared machine slows both alike):
//   - read: the two reads the comparison makes (`store.feedback` with each side's filter, at once);
//   - agreement: `compareSides(politeness@2:polite, reviewers)`: the same reads, the matching by
//     target, the latest generation, the majority, κ with its 2,000-resample interval, the base
//     rates and per-label figures, how the reviewers agree, and the disagreements listed.
// and reports agreement ÷ read per backend (`agreement_vs_read`: the larger of the two; the goal
// is ≤ 2) and the agreement's median answer time (`agreement_100k_ms`: the larger of the two).
// The verdict rows are written straight into the feedback view in bulk, each exactly as the
// store's own view writer writes it (the record `changesOf` makes of its `feedback_given`, through
// the store's upsert statement): 230,000 commands through `store.execute` would take minutes and
// measure appends, which `npm run bench:store` does. The last line is one JSON object. Not part of
// `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  type Actor,
  changesOf,
  type Envelope,
  emptyState,
  type FeedbackRecord,
} from '../src/core/index.js';
import { compareSides, resolveSides } from '../src/evidence/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../src/store/index.js';
import { upsertStatement } from '../src/store/schema/view-tables.js';
import { judgesApp } from '../test/evidence/stored-verdicts.js';
import { startThrowawayCluster } from '../test/support/postgres-cluster.js';

const TARGETS = Number(process.env.BENCH_AGREEMENT_TARGETS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_AGREEMENT_ROUNDS ?? 5);
const WORKSPACE = 'bench';
const A = 'politeness@2:polite';
const B = 'reviewers';

const median = (values: number[]) =>
  [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] ?? 0;

/** A seeded stream of uniforms in [0, 1) (mulberry32). */
function uniforms(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A feedback view row: its key (as the view writer's change names it) and record. */
interface Row {
  key: string;
  record: FeedbackRecord;
}

/** Every verdict row of the workspace, as the store's view holds it. */
function verdictRecords(): Row[] {
  const next = uniforms(2026);
  const judge: Actor = { kind: 'evaluator', name: 'politeness', version: '2' };
  const grace: Actor = { kind: 'reviewer', id: 'grace' };
  const ada: Actor = { kind: 'reviewer', id: 'ada' };
  const records: Row[] = [];
  let seq = 0;
  const start = Date.parse('2026-06-01T00:00:00Z');
  const give = (actor: Actor, i: number, polite: boolean, source: 'JUDGE' | 'HUMAN') => {
    seq += 1;
    const envelope: Envelope = {
      seq,
      id: `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`,
      ts: new Date(start + seq * 10).toISOString(),
      workspace_id: WORKSPACE,
      thread_id: 't',
      run_id: 'r',
      actor,
      event: {
        type: 'feedback_given',
        feedback_type: 'politeness',
        target: { kind: 'message', thread_id: 't', message_id: `m${i}`, run_id: 'r' },
        value: { polite },
        thread_id: 't',
        run_id: 'r',
        source,
        ...(actor.kind === 'reviewer' ? { replaces: null } : {}),
      },
    };
    for (const change of changesOf(emptyState(), envelope)) {
      if (change.view === 'feedback' && change.value !== null) {
        records.push({ key: change.key, record: change.value as FeedbackRecord });
      }
    }
  };
  for (let i = 0; i < TARGETS; i += 1) {
    const truth = next() < 0.7;
    const judged = next() < 0.85 ? truth : !truth;
    give(judge, i, judged, 'JUDGE');
    give(grace, i, truth, 'HUMAN');
    if (i % 5 === 0) give(ada, i, truth, 'HUMAN');
  }
  // A re-evaluation's later generation on a tenth of the targets.
  for (let i = 0; i < TARGETS; i += 10) give(judge, i, next() < 0.7, 'JUDGE');
  return records;
}

/** Each record's row of the feedback view: the store's own upsert statement's values. */
function rowsOf(records: readonly Row[]) {
  const first = records[0]?.record as FeedbackRecord;
  const { text, columns } = upsertStatement('feedback', first);
  const rows = records.map(({ key, record }) => [
    WORKSPACE,
    key,
    JSON.stringify(record),
    ...upsertStatement('feedback', record).extra,
  ]);
  return { text, names: ['workspace_id', 'key', 'body', ...columns], rows };
}

function seedSqlite(path: string, records: readonly Row[]) {
  const db = new Database(path);
  const { text, rows } = rowsOf(records);
  const insert = db.prepare(text);
  db.transaction(() => {
    for (const row of rows) insert.run(...row);
    db.prepare(
      'INSERT INTO workspaces (workspace_id, last_seq, last_ts) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ).run(WORKSPACE, records.length, new Date().toISOString());
  })();
  db.close();
}

async function seedPostgres(url: string, schema: string, records: readonly Row[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SET search_path TO "${schema}"`);
    const { names, rows } = rowsOf(records);
    await client.query('BEGIN');
    const page = 1000;
    for (let start = 0; start < rows.length; start += page) {
      const slice = rows.slice(start, start + page);
      const values = slice.map(
        (_, r) => `(${names.map((__, c) => `$${r * names.length + c + 1}`).join(', ')})`,
      );
      await client.query(
        `INSERT INTO feedback (${names.join(', ')}) VALUES ${values.join(', ')}`,
        slice.flat(),
      );
    }
    await client.query(
      'INSERT INTO workspaces (workspace_id, last_seq, last_ts) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [WORKSPACE, records.length, new Date().toISOString()],
    );
    await client.query('COMMIT');
    await client.query('ANALYZE feedback');
  } finally {
    await client.end();
  }
}

interface Figures {
  readMs: number;
  agreementMs: number;
  ratio: number;
  matched: number;
  kappa: number | null;
}

async function measure(label: string, store: Store): Promise<Figures> {
  const [sideA, sideB] = resolveSides(judgesApp, A, B);
  const read = async () => {
    const started = performance.now();
    const [a, b] = await Promise.all([
      store.feedback(WORKSPACE, sideA.filter),
      store.feedback(WORKSPACE, sideB.filter),
    ]);
    if (a.length + b.length === 0) throw new Error('nothing was read');
    return performance.now() - started;
  };
  let matched = 0;
  let kappa: number | null = null;
  const agree = async () => {
    const started = performance.now();
    const report = await compareSides(store, judgesApp, { workspaceId: WORKSPACE, a: A, b: B });
    const ms = performance.now() - started;
    matched = report.categorical?.matched ?? 0;
    kappa = report.categorical?.kappa.value ?? null;
    return ms;
  };
  // One of each first, untimed: caches, the JIT and the planner warm alike.
  await read();
  await agree();
  const reads: number[] = [];
  const agreements: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      reads.push(await read());
      agreements.push(await agree());
    } else {
      agreements.push(await agree());
      reads.push(await read());
    }
    console.log(
      `${label} round ${round + 1}: read ${reads.at(-1)?.toFixed(0)} ms, agreement ${agreements.at(-1)?.toFixed(0)} ms`,
    );
  }
  const readMs = median(reads);
  const agreementMs = median(agreements);
  return { readMs, agreementMs, ratio: agreementMs / readMs, matched, kappa };
}

function report(label: string, figures: Figures) {
  console.log(
    `${label}: ${figures.matched} matched targets, κ ${figures.kappa?.toFixed(3)}; reading the verdict rows ` +
      `${figures.readMs.toFixed(0)} ms, agreement ${figures.agreementMs.toFixed(0)} ms: ${figures.ratio.toFixed(2)}x`,
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-agreement-'));
  const cluster = process.env.DATABASE_URL ? undefined : await startThrowawayCluster();
  const databaseUrl = process.env.DATABASE_URL ?? cluster?.url ?? '';
  const schema = `evalflow_bench_agreement_${process.pid}`;
  const options = {
    feedbackTypes: judgesApp.feedbackTypes,
    evaluators: judgesApp.evaluators,
    scoreConfigs: judgesApp.scoreConfigs,
  };
  try {
    const records = verdictRecords();
    console.log(
      `agreement benchmark: ${TARGETS} targets, ${records.length} verdict rows, ${ROUNDS} rounds per backend`,
    );

    const path = join(dir, 'agreement.db');
    await openSqliteStore(path, options).close();
    seedSqlite(path, records);
    const sqliteStore = openSqliteStore(path, options);
    const sqlite = await measure('sqlite', sqliteStore).finally(() => sqliteStore.close());
    report('sqlite', sqlite);

    await (await openPostgresStore({ databaseUrl, schema }, options)).close();
    await seedPostgres(databaseUrl, schema, records);
    const postgresStore = await openPostgresStore({ databaseUrl, schema }, options);
    const postgres = await measure('postgres', postgresStore).finally(() => postgresStore.close());
    report('postgres', postgres);

    const drop = new pg.Client({ connectionString: databaseUrl });
    await drop.connect();
    await drop.query(`DROP SCHEMA "${schema}" CASCADE`);
    await drop.end();

    const round2 = (value: number) => Number(value.toFixed(2));
    console.log(
      JSON.stringify({
        bench: 'agreement',
        matched_targets: sqlite.matched,
        verdict_rows: records.length,
        agreement_vs_read: round2(Math.max(sqlite.ratio, postgres.ratio)),
        agreement_100k_ms: Math.round(Math.max(sqlite.agreementMs, postgres.agreementMs)),
        sqlite_agreement_vs_read: round2(sqlite.ratio),
        postgres_agreement_vs_read: round2(postgres.ratio),
        sqlite_agreement_ms: Math.round(sqlite.agreementMs),
        postgres_agreement_ms: Math.round(postgres.agreementMs),
        sqlite_read_ms: Math.round(sqlite.readMs),
        postgres_read_ms: Math.round(postgres.readMs),
      }),
    );
  } finally {
    cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

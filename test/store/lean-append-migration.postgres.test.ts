import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { replay } from '../../src/core/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';
import { givenTwoRatings } from './feedback-history.js';

// Migration 14 on a store with data: on SQLite the event and feedback tables are rebuilt keyed
// (`WITHOUT ROWID`) with every row kept; on both, feedback's two source indexes become one.

const options = () => ({ feedbackTypes: conformanceFeedbackTypes() });

/** The store's log and views, and a source's and a population's verdicts, read back. */
async function contents(store: Store) {
  return {
    events: await store.events({ workspace_id: 'w' }),
    views: await store.views('w'),
    users: await store.feedback('w', { source: 'USER' }),
    population: await store.feedback('w', { feedback_type: 'helpfulness', source: 'USER' }),
  };
}

/** After the migration, the store still appends: a third rating, read back by its source. */
async function expectAppends(store: Store) {
  const given = await store.execute({
    workspace_id: 'w',
    actor: { kind: 'user', id: 'cy' },
    command: {
      type: 'give_feedback',
      feedback_type: 'helpfulness',
      target: { kind: 'thread', thread_id: 't' },
      value: { rating: 4 },
    },
  });
  expect(given.type).toBe('recorded');
  const ratings = (await store.feedback('w', { source: 'USER' })).map((r) => r.value.rating);
  expect(ratings).toEqual([5, 2, 4]);
  expect(await store.views('w')).toEqual(replay(await store.events({ workspace_id: 'w' })));
}

// The two tables as migrations 1 and 9 left them, and the indexes 1 and 9 made.
const BEFORE = `
  CREATE TABLE events_old (workspace_id TEXT NOT NULL, seq BIGINT NOT NULL,
    id TEXT NOT NULL UNIQUE, ts TEXT NOT NULL, type TEXT NOT NULL, thread_id TEXT, run_id TEXT,
    actor TEXT NOT NULL, event TEXT NOT NULL, PRIMARY KEY (workspace_id, seq));
  INSERT INTO events_old SELECT * FROM events; DROP TABLE events;
  ALTER TABLE events_old RENAME TO events;
  CREATE INDEX events_by_thread ON events (workspace_id, thread_id, seq);
  CREATE TABLE feedback_old (workspace_id TEXT NOT NULL, key TEXT NOT NULL, seq BIGINT NOT NULL,
    target_kind TEXT NOT NULL, target_key TEXT NOT NULL, thread_id TEXT, run_id TEXT,
    source TEXT NOT NULL, participant TEXT NOT NULL, feedback_type TEXT NOT NULL,
    rating INTEGER NOT NULL, body TEXT NOT NULL, updated_at TEXT, PRIMARY KEY (workspace_id, key));
  INSERT INTO feedback_old SELECT * FROM feedback; DROP TABLE feedback;
  ALTER TABLE feedback_old RENAME TO feedback;
  CREATE INDEX feedback_by_target ON feedback (workspace_id, target_key, seq);
  CREATE INDEX feedback_by_thread ON feedback (workspace_id, thread_id, seq);
  CREATE INDEX feedback_by_participant ON feedback (workspace_id, participant, seq);
  CREATE INDEX feedback_by_source ON feedback (workspace_id, source, seq);
  CREATE INDEX feedback_by_type_source ON feedback (workspace_id, feedback_type, source, seq);
  DELETE FROM schema_migrations WHERE version = 14;`;

/** Which of the two tables are kept in their key's b-tree. */
const keyedTables = (db: Database.Database) =>
  (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('events', 'feedback')
         AND sql LIKE '%WITHOUT ROWID' ORDER BY name`,
      )
      .all() as { name: string }[]
  ).map((row) => row.name);

describe('migration 14 on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-migration-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('rebuilds the event and feedback tables keyed, every row kept, with one source index', async () => {
    const path = join(dir, 'old.db');
    const store = openSqliteStore(path, options());
    await givenTwoRatings(store, () => {});
    const before = await contents(store);
    await store.close();
    const db = new Database(path);
    db.exec(BEFORE);
    expect(keyedTables(db)).toEqual([]);
    db.close();

    const upgraded = openSqliteStore(path, options());
    try {
      expect(await contents(upgraded)).toEqual(before);
      await expectAppends(upgraded);
    } finally {
      await upgraded.close();
    }
    const after = new Database(path, { readonly: true });
    try {
      expect(keyedTables(after)).toEqual(['events', 'feedback']);
      const indexes = after
        .prepare(
          "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'feedback' AND sql IS NOT NULL ORDER BY name",
        )
        .all() as { name: string; sql: string }[];
      expect(indexes.map((index) => index.name)).toEqual([
        'feedback_by_participant',
        'feedback_by_source',
        'feedback_by_target',
        'feedback_by_thread',
      ]);
      expect(indexes.find((index) => index.name === 'feedback_by_source')?.sql).toContain(
        '(workspace_id, source, seq, feedback_type)',
      );
    } finally {
      after.close();
    }
  });
});

describe('migration 14 on Postgres', () => {
  const schema = freshSchemaName();
  afterAll(() => dropSchema(databaseUrl(), schema));

  it('makes the two source indexes one, every row kept', async () => {
    const open = () => openPostgresStore({ databaseUrl: databaseUrl(), schema }, options());
    const store = await open();
    await givenTwoRatings(store, () => {});
    const before = await contents(store);
    await store.close();
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    const indexes = async () =>
      (
        await client.query(
          `SELECT indexname, indexdef FROM pg_indexes
           WHERE schemaname = $1 AND tablename = 'feedback' AND indexname LIKE 'feedback_by_%'
           ORDER BY indexname`,
          [schema],
        )
      ).rows as { indexname: string; indexdef: string }[];
    try {
      await client.query(`SET search_path TO "${schema}"`);
      await client.query(`DROP INDEX feedback_by_source;
        CREATE INDEX feedback_by_source ON feedback (workspace_id, source, seq);
        CREATE INDEX feedback_by_type_source ON feedback (workspace_id, feedback_type, source, seq);
        DELETE FROM schema_migrations WHERE version = 14`);
      expect((await indexes()).map((index) => index.indexname)).toContain(
        'feedback_by_type_source',
      );
      const upgraded = await open();
      try {
        expect(await contents(upgraded)).toEqual(before);
        await expectAppends(upgraded);
      } finally {
        await upgraded.close();
      }
      const after = await indexes();
      expect(after.map((index) => index.indexname)).toEqual([
        'feedback_by_participant',
        'feedback_by_source',
        'feedback_by_target',
        'feedback_by_thread',
      ]);
      expect(after.find((index) => index.indexname === 'feedback_by_source')?.indexdef).toContain(
        '(workspace_id, source, seq, feedback_type)',
      );
    } finally {
      await client.end();
    }
  });
});

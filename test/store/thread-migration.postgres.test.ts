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

// Migration 10 on a store that held artifact versions before it: the versions' thread and seq are
// read from their bodies and their `artifact_put` events, so a thread judged after an upgrade
// sees the artifacts its runs produced before it.

const system = { kind: 'system', name: 'system' };
const agent = { kind: 'agent', thread_id: 't1' };

async function fill(store: Store, ws: string) {
  const steps: [unknown, unknown][] = [
    [system, { type: 'create_thread', thread_id: 't1' }],
    [agent, { type: 'start_run', run_id: 'r1', thread_id: 't1' }],
    [
      agent,
      { type: 'put_artifact', artifact_id: 'a1', kind: 'report', data: { n: 1 }, run_id: 'r1' },
    ],
    [system, { type: 'put_artifact', artifact_id: 'b1', kind: 'report' }],
    [
      agent,
      { type: 'put_artifact', artifact_id: 'a1', kind: 'report', data: { n: 2 }, run_id: 'r1' },
    ],
  ];
  for (const [actor, command] of steps) {
    const outcome = await store.executeUnchecked({ workspace_id: ws, actor, command });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  }
}

async function expectMigrated(store: Store, ws: string) {
  const page = await store.threadPage(ws, 't1', { after: 0, through: 100, limit: 10 });
  expect(page.map((e) => e.kind === 'artifact' && [e.seq, e.artifact.version])).toEqual([
    [3, 1],
    [5, 2],
  ]);
  expect(await store.artifact(ws, 'a1', 1)).toMatchObject({ seq: 3, thread_id: 't1' });
  expect(await store.artifact(ws, 'b1')).toMatchObject({ seq: 4, thread_id: null });
  expect(await store.views(ws)).toEqual(replay(await store.events({ workspace_id: ws })));
}

describe('migration 10 on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-migration-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fills in the thread and seq of artifact versions put before it', async () => {
    const path = join(dir, 'old.db');
    const store = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    await fill(store, 'w');
    await store.close();
    // Back to what migration 8 left: no columns, no index, bodies without seq.
    const db = new Database(path);
    db.exec(`DROP INDEX artifact_versions_by_thread;
      ALTER TABLE artifact_versions DROP COLUMN seq; ALTER TABLE artifact_versions DROP COLUMN thread_id;
      UPDATE artifact_versions SET body = json_remove(body, '$.seq');
      DELETE FROM schema_migrations WHERE version = 10;`);
    const row = db.prepare("SELECT body FROM artifact_versions WHERE key = 'a1@1'").get() as {
      body: string;
    };
    expect(JSON.parse(row.body)).not.toHaveProperty('seq');
    db.close();
    const upgraded = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    try {
      await expectMigrated(upgraded, 'w');
    } finally {
      await upgraded.close();
    }
  });
});

describe('migration 10 on Postgres', () => {
  const schema = freshSchemaName();
  afterAll(() => dropSchema(databaseUrl(), schema));

  it('fills in the thread and seq of artifact versions put before it', async () => {
    const open = () =>
      openPostgresStore(
        { databaseUrl: databaseUrl(), schema },
        { feedbackTypes: conformanceFeedbackTypes() },
      );
    const store = await open();
    await fill(store, 'w');
    await store.close();
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    try {
      await client.query(`SET search_path TO "${schema}"`);
      await client.query(`DROP INDEX artifact_versions_by_thread;
        ALTER TABLE artifact_versions DROP COLUMN seq, DROP COLUMN thread_id;
        UPDATE artifact_versions SET body = (body::jsonb - 'seq')::text;
        DELETE FROM schema_migrations WHERE version = 10;`);
    } finally {
      await client.end();
    }
    const upgraded = await open();
    try {
      await expectMigrated(upgraded, 'w');
    } finally {
      await upgraded.close();
    }
  });
});

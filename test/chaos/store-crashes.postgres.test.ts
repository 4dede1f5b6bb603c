import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { type CrashTarget, crashStore } from '../../bench/chaos/store-crashes.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';

// The short version of chaos scenario 5 (npm run bench:chaos kills more often): a process
// appending to the store is SIGKILLed mid-append and started again, on SQLite (WAL) and on
// Postgres; the log stays gap-free, holds every acknowledged command once, and replays to the
// views.

const dir = mkdtempSync(join(tmpdir(), 'evalflow-store-crashes-'));
const schema = freshSchemaName();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropSchema(databaseUrl(), schema);
});

const targets: [string, () => CrashTarget][] = [
  ['SQLite (WAL)', () => ({ backend: 'sqlite', path: join(dir, 'evalflow.db') })],
  ['Postgres', () => ({ backend: 'postgres', url: databaseUrl(), schema })],
];

it.each(targets)(
  'keeps the %s log whole through kills mid-append',
  {
    timeout: 300_000,
  },
  async (_, target) => {
    const figures = await crashStore(target(), { kills: 3, seed: 5 });
    expect(figures.acknowledged).toBeGreaterThan(0);
    expect(figures).toMatchObject({ lost: 0, duplicated: 0, gaps: 0, viewsEqualReplay: true });
    expect(figures.events).toBeGreaterThanOrEqual(figures.acknowledged);
  },
);

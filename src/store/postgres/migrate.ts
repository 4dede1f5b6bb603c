import type pg from 'pg';
import { migrations } from '../schema/migrations.js';
import { STORE_ID_QUERY, storeIdOf } from '../schema/store-id.js';

// Any fixed number: the advisory lock that keeps two processes from migrating at once.
const MIGRATION_LOCK = 4_0037_0002;

/**
 * Applies the migrations not yet recorded, in one transaction under an advisory lock. Returns the
 * store's id.
 */
export async function migratePostgres(client: pg.ClientBase): Promise<string> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL
    )`);
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM schema_migrations',
    );
    const applied = new Set(rows.map((row) => row.version));
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) {
        if (typeof statement === 'string') await client.query(statement);
        else if ('postgres' in statement) await client.query(statement.postgres);
        else await client.query(numbered(statement.text), [...statement.params()]);
      }
      await client.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [migration.version, migration.name, new Date().toISOString()],
      );
    }
    const id = storeIdOf((await client.query(STORE_ID_QUERY)).rows);
    await client.query('COMMIT');
    return id;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** `?` placeholders as Postgres numbers them (`$1, $2, ...`). */
const numbered = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

import pg from 'pg';
import type { Backend, Row, Sql } from '../backend.js';
import { migratePostgres } from './migrate.js';

export interface PostgresOptions {
  /** A `postgres://` URL. */
  databaseUrl: string;
  /** The schema to keep the tables in (created if missing); default: the server's search_path. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
}

/**
 * Each distinct statement as a named prepared statement (each connection parses it once), its
 * `?` placeholders numbered `$1, $2, ...` (the store's SQL holds no `?` in literals).
 */
const prepared = new Map<string, { name: string; text: string }>();
function toPostgres(text: string): { name: string; text: string } {
  let statement = prepared.get(text);
  if (statement === undefined) {
    let n = 0;
    statement = {
      name: `evalflow_${prepared.size + 1}`,
      text: text.replace(/\?/g, () => `$${++n}`),
    };
    prepared.set(text, statement);
  }
  return statement;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

function sqlOver(client: pg.ClientBase): Sql {
  return {
    all: async (text, params = []) =>
      (await client.query({ ...toPostgres(text), values: [...params] })).rows as Row[],
    run: async (text, params = []) => {
      await client.query({ ...toPostgres(text), values: [...params] });
    },
  };
}

/**
 * Postgres through a `pg` pool. Each transaction holds one pooled client; writers to the same
 * workspace serialize on its row lock, writers to different ones run in parallel.
 */
export async function postgresBackend(options: PostgresOptions): Promise<Backend> {
  const { schema } = options;
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.max ?? 10,
    ...(schema === undefined ? {} : { options: `-c search_path=${quoteIdent(schema)}` }),
  });
  // An idle client's error (the server restarting) must not crash the process; the next query
  // gets a fresh client and its own error.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    try {
      if (schema !== undefined)
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await migratePostgres(client);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end();
    throw error;
  }

  return {
    async read(work) {
      const client = await pool.connect();
      try {
        return await work(sqlOver(client));
      } finally {
        client.release();
      }
    },
    async transaction(work) {
      const client = await pool.connect();
      // A client whose rollback failed is in an unknown state: it is destroyed, not pooled again.
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(sqlOver(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

import pg from 'pg';
import type { Backend, Row, Sql } from '../backend.js';
import { StoreUnavailableError } from '../errors.js';
import { isConnectionFailure, reasonOf, serverOf } from './connection-failures.js';
import { migratePostgres } from './migrate.js';
import { appendInOneStatement } from './one-statement-append.js';
import { openWithRetry } from './open-with-retry.js';

/** How long opening waits for the server by default. */
export const DEFAULT_OPEN_TIMEOUT_MS = 60_000;

// One connect attempt while opening gives up after this, so a silent host does not use the
// whole deadline on one try.
const CONNECT_ATTEMPT_MS = 10_000;

export interface PostgresOptions {
  /** A `postgres://` URL. */
  databaseUrl: string;
  /** The schema to keep the tables in (created if missing); default: the server's search_path. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
  /**
   * How long opening waits for the server (refused, not resolvable, starting up) before it fails
   * with a `StoreOpenError`, in milliseconds (default 60 000).
   */
  openTimeoutMs?: number;
  /** Told, as one line, what opening waits for (`waiting for Postgres at host:port (…)`). */
  onWait?: (line: string) => void;
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
 * workspace serialize on its row lock, writers to different ones run in parallel. Opening waits
 * for the server (up to `openTimeoutMs`); afterwards a lost connection fails only the operation
 * that was using it, with a retryable `StoreUnavailableError`.
 */
export async function postgresBackend(options: PostgresOptions): Promise<Backend> {
  const { schema } = options;
  const server = serverOf(options.databaseUrl);
  const config: pg.ClientConfig = {
    connectionString: options.databaseUrl,
    ...(schema === undefined ? {} : { options: `-c search_path=${quoteIdent(schema)}` }),
  };
  const storeId = await openWithRetry((remainingMs) => migrateOnce(config, schema, remainingMs), {
    server,
    timeoutMs: options.openTimeoutMs ?? DEFAULT_OPEN_TIMEOUT_MS,
    onWait: options.onWait,
  });

  const pool = new pg.Pool({ ...config, max: options.max ?? 10 });
  // pg emits a dropped connection as an 'error' event, which crashes the process when nothing
  // listens: on the pool for idle clients, on the client itself while it is checked out. The
  // operation using it fails through its query's rejection anyway, and pg-pool discards the
  // broken client on release, so both listeners only keep the process alive.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const unavailable = (error: unknown): unknown =>
    isConnectionFailure(error)
      ? new StoreUnavailableError(
          `Postgres at ${server} is unavailable: ${reasonOf(error)}`,
          server,
          { cause: error },
        )
      : error;

  const backend: Backend = {
    storeId,
    dialect: 'postgres',
    async read(work) {
      let client: pg.PoolClient | undefined;
      let broken: Error | undefined;
      try {
        client = await pool.connect();
        return await work(sqlOver(client));
      } catch (error) {
        if (isConnectionFailure(error)) broken = error as Error;
        throw unavailable(error);
      } finally {
        client?.release(broken);
      }
    },
    async transaction(work) {
      let client: pg.PoolClient | undefined;
      // A client whose rollback failed is in an unknown state: it is destroyed, not pooled again.
      let broken: Error | undefined;
      try {
        client = await pool.connect();
        await client.query('BEGIN');
        const result = await work(sqlOver(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client?.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw unavailable(error);
      } finally {
        client?.release(broken);
      }
    },
    appendAt: (plan) => backend.read((sql) => appendInOneStatement(sql, plan)),
    close: () => pool.end(),
  };
  return backend;
}

/**
 * Creates the schema unless it exists. Two stores creating it at once may both pass `IF NOT
 * EXISTS`, and the later one's insert into the catalog then fails as a duplicate: it exists.
 */
async function createSchema(client: pg.Client, schema: string): Promise<void> {
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
  } catch (error) {
    const duplicate =
      error instanceof pg.DatabaseError && (error.code === '23505' || error.code === '42P06');
    if (!duplicate) throw error;
  }
}

/**
 * One attempt at opening: connect a client of its own, create the schema, migrate, disconnect.
 * Returns the store's id.
 */
async function migrateOnce(
  config: pg.ClientConfig,
  schema: string | undefined,
  remainingMs: number,
): Promise<string> {
  const client = new pg.Client({
    ...config,
    connectionTimeoutMillis: Math.min(remainingMs, CONNECT_ATTEMPT_MS),
  });
  // As in the pool: the failure reaches the caller through the pending connect or query.
  client.on('error', () => {});
  try {
    await client.connect();
    if (schema !== undefined) await createSchema(client, schema);
    return await migratePostgres(client);
  } finally {
    await client.end().catch(() => {});
  }
}

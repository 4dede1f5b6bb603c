import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { resolveLimits } from '../core/index.js';
import { createStore, type StoreOptions } from './create-store.js';
import type { Store } from './port.js';
import { type PostgresOptions, postgresBackend } from './postgres/backend.js';
import { postgresCoordination } from './postgres/coordination.js';
import { sqliteBackend } from './sqlite/backend.js';

export const DEFAULT_SQLITE_PATH = '.evalflow/evalflow.db';

export interface OpenStoreOptions extends StoreOptions {
  /** Postgres when given (typically `process.env.DATABASE_URL`). */
  databaseUrl?: string;
  /** The Postgres schema for the tables (default: the server's search_path). */
  schema?: string;
  /**
   * How long opening waits for Postgres to answer before it fails with a `StoreOpenError`, in
   * milliseconds (default 60 000; SQLite ignores it).
   */
  openTimeoutMs?: number;
  /** Told, as one line, what opening waits for while Postgres does not answer. */
  onWait?: (line: string) => void;
  /** The SQLite file when there is no URL (default `.evalflow/evalflow.db`); `:memory:` works. */
  sqlitePath?: string;
}

/** Postgres when a URL is given, else SQLite (its folder created); migrated and ready. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const {
    databaseUrl,
    schema,
    openTimeoutMs,
    onWait,
    sqlitePath = DEFAULT_SQLITE_PATH,
    ...storeOptions
  } = options;
  if (databaseUrl)
    return openPostgresStore({ databaseUrl, schema, openTimeoutMs, onWait }, storeOptions);
  return openSqliteStore(sqlitePath, storeOptions);
}

// Each opener checks the limits before it connects, so a mistake there leaves no connection open.

export function openSqliteStore(path: string, options: StoreOptions): Store {
  resolveLimits(options.limits);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  return createStore(sqliteBackend(path), options);
}

/**
 * @throws StoreOpenError when Postgres does not answer within `openTimeoutMs`, or refuses.
 * @throws InvalidLimitsError for an unknown or non-positive limit, before connecting.
 */
export async function openPostgresStore(
  postgres: PostgresOptions,
  options: StoreOptions,
): Promise<Store> {
  resolveLimits(options.limits);
  const backend = await postgresBackend(postgres);
  return createStore(backend, options, postgresCoordination(postgres, backend));
}

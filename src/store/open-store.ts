import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createStore, type StoreOptions } from './create-store.js';
import type { Store } from './port.js';
import { postgresBackend } from './postgres/backend.js';
import { sqliteBackend } from './sqlite/backend.js';

export const DEFAULT_SQLITE_PATH = '.evalflow/evalflow.db';

export interface OpenStoreOptions extends StoreOptions {
  /** Postgres when given (typically `process.env.DATABASE_URL`). */
  databaseUrl?: string;
  /** The Postgres schema for the tables (default: the server's search_path). */
  schema?: string;
  /** The SQLite file when there is no URL (default `.evalflow/evalflow.db`); `:memory:` works. */
  sqlitePath?: string;
}

/** Postgres when a URL is given, else SQLite (its folder created); migrated and ready. */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const { databaseUrl, schema, sqlitePath = DEFAULT_SQLITE_PATH, ...storeOptions } = options;
  if (databaseUrl) return openPostgresStore({ databaseUrl, schema }, storeOptions);
  return openSqliteStore(sqlitePath, storeOptions);
}

export function openSqliteStore(path: string, options: StoreOptions): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  return createStore(sqliteBackend(path), options);
}

export async function openPostgresStore(
  postgres: { databaseUrl: string; schema?: string; max?: number },
  options: StoreOptions,
): Promise<Store> {
  return createStore(await postgresBackend(postgres), options);
}

// What an adapter provides: SQL over one connection (a transaction inside `transaction`). The
// store's logic is written once against this; SQLite and Postgres differ only below it.

import type { AppendPlan } from './append-plan.js';

export type Row = Record<string, unknown>;

export interface Sql {
  /** Rows of a query with `?` placeholders. */
  all(text: string, params?: readonly unknown[]): Promise<Row[]>;
  run(text: string, params?: readonly unknown[]): Promise<void>;
}

export interface Backend {
  /** The id its schema was created with (see `Store.id`). */
  readonly storeId: string;
  read<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction: committed if it returns, rolled back if it throws. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Writes the plan in one transaction if the workspace's row is still at `plan.expectedSeq`
   * and its command id is unused; false, with nothing written, otherwise. An adapter provides
   * it where it can do better than `appendInTransaction` over `transaction` (Postgres: one
   * statement, one round trip).
   */
  appendAt?(plan: AppendPlan): Promise<boolean>;
  /**
   * A number that changes whenever another connection (another store, another process) commits
   * to the database, read without a query of the tables (SQLite's `data_version`); absent where
   * the adapter cannot tell so cheaply.
   */
  othersWroteMark?(): number;
  close(): Promise<void>;
}

export const asNumber = (value: unknown): number => Number(value);
export const parseJson = <T>(value: unknown): T => JSON.parse(String(value)) as T;

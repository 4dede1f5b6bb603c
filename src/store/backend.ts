// What an adapter provides: SQL over one connection (a transaction inside `transaction`). The
// store's logic is written once against this; SQLite and Postgres differ only below it, and in
// the few statements written per `dialect` where one statement can do what takes SQLite several
// (a review slot's claim, with Postgres's row locks).

import type { Envelope, ViewChange } from '../core/index.js';
import type { AttemptRecord, EvaluationEntry } from './evaluation-rows.js';

export type Row = Record<string, unknown>;

/**
 * The rows one decided command writes, to be written only if the workspace is still at
 * `expectedSeq`: the events, each changed view row once as it stands after the last change to
 * it, the workspace's new head and, with a command id, the command's outcome.
 */
export interface AppendPlan {
  workspace_id: string;
  expectedSeq: number;
  last_seq: number;
  last_ts: string;
  events: readonly Envelope[];
  changes: readonly ViewChange[];
  command?: { command_id: string; fingerprint: string; outcome: string };
  /** View rows the decision took to be absent: the append holds only while they are. */
  absent?: readonly AbsentEntity[];
  /** The evaluation this append's verdict settles, written in the same transaction. */
  settles?: EvaluationEntry;
  /** The attempt that judged it, recorded in the same transaction. */
  attempt?: AttemptRecord;
}

/** A view row a decision took to be absent (see `AppendPlan.absent`). */
export interface AbsentEntity {
  view: 'threads' | 'runs' | 'artifacts' | 'messages' | 'judgeVersions';
  key: string;
}

export interface Sql {
  /** Rows of a query with `?` placeholders. */
  all(text: string, params?: readonly unknown[]): Promise<Row[]>;
  run(text: string, params?: readonly unknown[]): Promise<void>;
}

export interface Backend {
  /** The id its schema was created with (see `Store.id`). */
  readonly storeId: string;
  /** The SQL it speaks, for the statements written per dialect. */
  readonly dialect: 'sqlite' | 'postgres';
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

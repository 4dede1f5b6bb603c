import type { Envelope, ViewChange } from '../../core/index.js';
import type { AppendPlan, Sql } from '../backend.js';
import {
  attemptRow,
  RECORD_ATTEMPT,
  SETTLE_EVALUATION,
  settlementRow,
} from '../evaluation-rows.js';
import { deleteStatement, upsertStatement, viewTables } from '../schema/view-tables.js';

/** Each changed row once, as it stands after the last change to it. */
export function lastChanges(changes: readonly ViewChange[]): ViewChange[] {
  const last = new Map<string, ViewChange>();
  for (const change of changes) last.set(`${change.view} ${change.key}`, change);
  return [...last.values()];
}

export const EVENT_COLUMNS = [
  'workspace_id',
  'seq',
  'id',
  'ts',
  'type',
  'thread_id',
  'run_id',
  'actor',
  'event',
] as const;

export const eventRow = (e: Envelope): unknown[] => [
  e.workspace_id,
  e.seq,
  e.id,
  e.ts,
  e.event.type,
  e.thread_id,
  e.run_id,
  JSON.stringify(e.actor),
  JSON.stringify(e.event),
];

const INSERT_EVENT = `INSERT INTO events (${EVENT_COLUMNS.join(', ')})
  VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')})`;

/**
 * Writes the plan's rows through `sql`, inside a transaction that holds the workspace; the
 * workspace's head too, unless the caller has moved it already.
 */
export async function writePlan(sql: Sql, plan: AppendPlan, { headMoved = false } = {}) {
  const { workspace_id } = plan;
  for (const e of plan.events) await sql.run(INSERT_EVENT, eventRow(e));
  for (const change of plan.changes) {
    if (change.value === null) {
      await sql.run(deleteStatement(change.view), [workspace_id, change.key]);
      continue;
    }
    const { text, extra } = upsertStatement(change.view, change.value);
    await sql.run(text, [workspace_id, change.key, JSON.stringify(change.value), ...extra]);
  }
  if (plan.events.length > 0 && !headMoved) {
    await sql.run('UPDATE workspaces SET last_seq = ?, last_ts = ? WHERE workspace_id = ?', [
      plan.last_seq,
      plan.last_ts,
      workspace_id,
    ]);
  }
  if (plan.command !== undefined) {
    const { command_id, fingerprint, outcome } = plan.command;
    await sql.run(
      'INSERT INTO commands (workspace_id, command_id, fingerprint, outcome) VALUES (?, ?, ?, ?)',
      [workspace_id, command_id, fingerprint, outcome],
    );
  }
  await writeSettlement(sql, plan);
}

/** The ledger entry and attempt of the evaluation a verdict settles, if it settles one. */
export async function writeSettlement(sql: Sql, plan: Pick<AppendPlan, 'settles' | 'attempt'>) {
  const { settles, attempt } = plan;
  if (settles !== undefined) await sql.run(SETTLE_EVALUATION, settlementRow(settles));
  if (attempt !== undefined && settles !== undefined) {
    await sql.run(RECORD_ATTEMPT, attemptRow(attempt, settles.settled_at));
  }
}

/**
 * The plan written in one transaction of `transaction`'s, if the workspace's row is still at
 * `expectedSeq`, the command id (if any) is unused and the absent rows are; false, with nothing
 * written, otherwise.
 */
export async function appendInTransaction(
  transaction: <T>(work: (sql: Sql) => Promise<T>) => Promise<T>,
  plan: AppendPlan,
): Promise<boolean> {
  const stale = Symbol('stale');
  try {
    return await transaction(async (sql) => {
      // The head moves only from `expectedSeq`: one statement checks and moves it.
      const moved = await sql.all(
        `UPDATE workspaces SET last_seq = ?, last_ts = ?
         WHERE workspace_id = ? AND last_seq = ? RETURNING last_seq`,
        [plan.last_seq, plan.last_ts, plan.workspace_id, plan.expectedSeq],
      );
      if (moved.length === 0) throw stale;
      if (plan.command !== undefined) {
        const used = await sql.all(
          'SELECT 1 FROM commands WHERE workspace_id = ? AND command_id = ?',
          [plan.workspace_id, plan.command.command_id],
        );
        if (used.length > 0) throw stale;
      }
      for (const { view, key } of plan.absent ?? []) {
        const found = await sql.all(
          `SELECT 1 FROM ${viewTables[view].table} WHERE workspace_id = ? AND key = ?`,
          [plan.workspace_id, key],
        );
        if (found.length > 0) throw stale;
      }
      await writePlan(sql, plan, { headMoved: true });
      return true;
    });
  } catch (error) {
    if (error === stale) return false;
    throw error;
  }
}

import type { AppendPlan, Sql } from '../backend.js';
import { EVENT_COLUMNS, eventRow } from '../commands/append-plan.js';
import {
  ATTEMPT_COLUMNS,
  attemptRow,
  SETTLEMENT_COLUMNS,
  SETTLEMENT_CONFLICT,
  settlementRow,
} from '../evaluation-rows.js';
import { upsertStatement, viewTables } from '../schema/view-tables.js';

// An append as one Postgres statement, so one round trip: data-modifying CTEs that each write
// only through `head`, the conditional update of the workspace's row (at the expected seq, and
// with the rows the decision took to be absent still absent). Under READ COMMITTED an update
// that waited for another writer's row lock re-checks `last_seq` on the row that writer
// committed, so a workspace that moved on updates nothing and nothing else is written (every
// change to a view row comes with a new seq). A command id already used fails the statement on
// the commands key, which writes nothing either.

const UNIQUE_VIOLATION = '23505';
// Bigint columns (an integer column, such as rating, takes a bigint on insert); the rest are text.
const NUMERIC_COLUMNS = new Set(['seq', 'version', 'rating', 'attempt', 'duration_ms', 'failed']);
const typed = (column: string) => (NUMERIC_COLUMNS.has(column) ? '?::bigint' : '?::text');

/** Writes the plan if the workspace is still at `plan.expectedSeq`; false, writing nothing, else. */
export async function appendInOneStatement(sql: Sql, plan: AppendPlan): Promise<boolean> {
  const { text, values } = statementOf(plan);
  try {
    const rows = await sql.all(text, values);
    return Number(rows[0]?.written) === 1;
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) return false;
    throw error;
  }
}

function statementOf(plan: AppendPlan): { text: string; values: unknown[] } {
  const values: unknown[] = [plan.last_seq, plan.last_ts, plan.workspace_id, plan.expectedSeq];
  const absent = (plan.absent ?? []).map(({ view, key }) => {
    values.push(plan.workspace_id, key);
    return `\n        AND NOT EXISTS (SELECT 1 FROM ${viewTables[view].table}
          WHERE workspace_id = ?::text AND key = ?::text)`;
  });
  const parts = [
    `head AS (UPDATE workspaces SET last_seq = ?::bigint, last_ts = ?::text
      WHERE workspace_id = ?::text AND last_seq = ?::bigint${absent.join('')}
      RETURNING workspace_id)`,
  ];
  const insert = (name: string, table: string, columns: readonly string[], tail = '') =>
    parts.push(
      `${name} AS (INSERT INTO ${table} (${columns.join(', ')})
        SELECT head.workspace_id, ${columns.slice(1).map(typed).join(', ')} FROM head${tail})`,
    );
  plan.events.forEach((envelope, i) => {
    insert(`e${i}`, 'events', EVENT_COLUMNS);
    values.push(...eventRow(envelope).slice(1));
  });
  plan.changes.forEach((change, i) => {
    const { table } = viewTables[change.view];
    if (change.value === null) {
      parts.push(`v${i} AS (DELETE FROM ${table} USING head
        WHERE ${table}.workspace_id = head.workspace_id AND ${table}.key = ?::text)`);
      values.push(change.key);
      return;
    }
    const { extra, columns } = upsertStatement(change.view, change.value);
    const updates = ['body', ...columns].map((column) => `${column} = excluded.${column}`);
    insert(
      `v${i}`,
      table,
      ['workspace_id', 'key', 'body', ...columns],
      ` ON CONFLICT (workspace_id, key) DO UPDATE SET ${updates.join(', ')}`,
    );
    values.push(change.key, JSON.stringify(change.value), ...extra);
  });
  if (plan.command !== undefined) {
    insert('c', 'commands', ['workspace_id', 'command_id', 'fingerprint', 'outcome']);
    const { command_id, fingerprint, outcome } = plan.command;
    values.push(command_id, fingerprint, outcome);
  }
  if (plan.settles !== undefined) {
    insert('l', 'evaluation_ledger', SETTLEMENT_COLUMNS, ` ${SETTLEMENT_CONFLICT}`);
    values.push(...settlementRow(plan.settles).slice(1));
    if (plan.attempt !== undefined) {
      insert('a', 'evaluation_attempts', ATTEMPT_COLUMNS, ' ON CONFLICT DO NOTHING');
      values.push(...attemptRow(plan.attempt, plan.settles.settled_at).slice(1));
    }
  }
  return {
    text: `WITH ${parts.join(',\n')}\nSELECT count(*)::int AS written FROM head`,
    values,
  };
}

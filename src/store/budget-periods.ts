import { BUDGET_WARNING_SHARE } from '../core/index.js';
import { asNumber, type Backend, type Row, type Sql } from './backend.js';
import type {
  BudgetPeriodRef,
  PeriodSpend,
  ReserveOutcome,
  SettledReservation,
} from './budgets.js';
import type { EvaluationKeyColumns } from './usage.js';

// What every budget has spent and holds reserved per period: an attempt reserves its estimate
// before its call and settles its actual cost after.

type AttemptKey = EvaluationKeyColumns & { attempt: number };

const keyWhere =
  'workspace_id = ? AND generation = ? AND participant = ? AND target_key = ? AND attempt = ?';
const keyParams = (key: AttemptKey) => [
  key.workspace_id,
  key.generation,
  key.participant,
  key.target_key,
  key.attempt,
];
const spendOf = (row: Row | undefined): PeriodSpend => ({
  spent_nanos: row === undefined ? 0 : asNumber(row.spent_nanos),
  reserved_nanos: row === undefined ? 0 : asNumber(row.reserved_nanos),
});

/** A period's spent and reserved amounts, read on `sql` (zeros before its first use). */
async function periodSpend(sql: Sql, ref: Omit<BudgetPeriodRef, 'limit_nanos'>) {
  const [row] = await sql.all(
    `SELECT spent_nanos, reserved_nanos FROM budget_periods
       WHERE scope = ? AND budget_id = ? AND period_key = ?`,
    [ref.scope, ref.budget_id, ref.period_key],
  );
  return spendOf(row);
}

/** What a budget has spent and holds reserved in one period (zeros before its first use). */
export const spendInPeriod = (backend: Backend, ref: Omit<BudgetPeriodRef, 'limit_nanos'>) =>
  backend.read((sql) => periodSpend(sql, ref));

/** Reserves an attempt's estimate in a period if it fits; one holding a reservation is admitted. */
export const reserve = (
  backend: Backend,
  key: AttemptKey,
  ref: BudgetPeriodRef,
  estimate_nanos: number,
) =>
  backend.transaction(async (sql): Promise<ReserveOutcome> => {
    const period = [ref.scope, ref.budget_id, ref.period_key];
    await sql.run(
      `INSERT INTO budget_periods (scope, budget_id, period_key, spent_nanos, reserved_nanos,
         warned) VALUES (?, ?, ?, 0, 0, 0) ON CONFLICT DO NOTHING`,
      period,
    );
    // The reservation first: an attempt that holds one already is admitted as it was.
    const inserted = await sql.all(
      `INSERT INTO budget_reservations (workspace_id, generation, participant, target_key,
         attempt, scope, budget_id, period_key, estimate_nanos, actual_nanos)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
       ON CONFLICT DO NOTHING RETURNING attempt`,
      [...keyParams(key), ...period, estimate_nanos],
    );
    if (inserted.length === 0) return { admitted: true, ...(await periodSpend(sql, ref)) };
    // One conditional update: on Postgres it waits on the row's lock and re-reads it, on
    // SQLite the transaction already holds the write lock.
    const [admitted] = await sql.all(
      `UPDATE budget_periods SET reserved_nanos = reserved_nanos + ?
         WHERE scope = ? AND budget_id = ? AND period_key = ?
           AND spent_nanos + reserved_nanos + ? <= ? AND spent_nanos + reserved_nanos < ?
       RETURNING spent_nanos, reserved_nanos`,
      [estimate_nanos, ...period, estimate_nanos, ref.limit_nanos, ref.limit_nanos],
    );
    if (admitted !== undefined) return { admitted: true, ...spendOf(admitted) };
    await sql.run(
      `DELETE FROM budget_reservations WHERE ${keyWhere} AND scope = ? AND budget_id = ?`,
      [...keyParams(key), ref.scope, ref.budget_id],
    );
    return { admitted: false, ...(await periodSpend(sql, ref)) };
  });

/** Settles an attempt's open reservations with what it cost; settling again changes nothing. */
export const settleReservations = (
  backend: Backend,
  key: AttemptKey,
  actual_nanos: number,
  limitOf: (ref: Omit<BudgetPeriodRef, 'limit_nanos'>) => number | null,
) =>
  backend.transaction(async (sql) => {
    const open = await sql.all(
      `UPDATE budget_reservations SET actual_nanos = ?
         WHERE ${keyWhere} AND actual_nanos IS NULL
       RETURNING scope, budget_id, period_key, estimate_nanos`,
      [actual_nanos, ...keyParams(key)],
    );
    const settled: SettledReservation[] = [];
    // An attempt under several budgets spends its cost in each.
    for (const row of open) {
      const ref = {
        scope: String(row.scope),
        budget_id: String(row.budget_id),
        period_key: String(row.period_key),
      };
      const limit_nanos = limitOf(ref);
      const [after] = await sql.all(
        `UPDATE budget_periods SET reserved_nanos = reserved_nanos - ?,
           spent_nanos = spent_nanos + ?
           WHERE scope = ? AND budget_id = ? AND period_key = ?
         RETURNING spent_nanos, reserved_nanos, warned`,
        [asNumber(row.estimate_nanos), actual_nanos, ref.scope, ref.budget_id, ref.period_key],
      );
      const spend = spendOf(after);
      const crossed =
        limit_nanos !== null &&
        asNumber(after?.warned ?? 1) === 0 &&
        spend.spent_nanos >= Math.ceil(limit_nanos * BUDGET_WARNING_SHARE);
      if (crossed) {
        await sql.run(
          `UPDATE budget_periods SET warned = 1
             WHERE scope = ? AND budget_id = ? AND period_key = ?`,
          [ref.scope, ref.budget_id, ref.period_key],
        );
      }
      settled.push({ ...ref, limit_nanos: limit_nanos ?? 0, ...spend, warn: crossed });
    }
    return settled;
  });

/** An evaluation's attempts before `attempt` whose reservations are still open. */
export async function openAttemptsBefore(
  backend: Backend,
  key: EvaluationKeyColumns,
  attempt: number,
): Promise<number[]> {
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT DISTINCT attempt FROM budget_reservations
         WHERE workspace_id = ? AND generation = ? AND participant = ? AND target_key = ?
           AND attempt < ? AND actual_nanos IS NULL ORDER BY attempt`,
      [key.workspace_id, key.generation, key.participant, key.target_key, attempt],
    ),
  );
  return rows.map((row) => asNumber(row.attempt));
}

/** What one attempt's usage reports cost (unpriced reports count as nothing). */
export async function attemptCost(backend: Backend, key: AttemptKey): Promise<number> {
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT COALESCE(SUM(cost_nanos), 0) AS cost FROM evaluation_usage WHERE ${keyWhere}`,
      keyParams(key),
    ),
  );
  return asNumber(rows[0]?.cost ?? 0);
}

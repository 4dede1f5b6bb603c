import { BUDGET_WARNING_SHARE, type Budget, type BudgetSettings } from '../core/index.js';
import { asNumber, type Backend, parseJson, type Row, type Sql } from './backend.js';
import type { EvaluationKeyColumns } from './usage.js';

// Budgets in the store: a workspace's own budgets (set through the API, every change kept in an
// audit), and what every budget has spent and holds reserved per period. An evaluation reserves
// its estimate before it calls its evaluator and settles the actual cost after; the reserve is
// one transaction that admits it only while the period's spent + reserved + its estimate stays
// within the limit, so every worker process on one store shares the cap, and spend passes it by
// no more than what calls in flight cost beyond their estimates. Money is in nano-dollars.

export { GLOBAL_SCOPE } from '../core/index.js';

export interface StoredBudget {
  workspace_id: string;
  budget_id: string;
  settings: BudgetSettings;
  /** The budget as it is in force: its settings, its id and its workspace. */
  budget: Budget;
  changed_by: string;
  changed_at: string;
}

export interface BudgetChange {
  change: number;
  /** Null: the budget was removed. */
  settings: BudgetSettings | null;
  changed_by: string;
  changed_at: string;
}

/** A budget in one period, as a reservation names it. */
export interface BudgetPeriodRef {
  scope: string;
  budget_id: string;
  period_key: string;
  limit_nanos: number;
}

export interface PeriodSpend {
  spent_nanos: number;
  reserved_nanos: number;
}

export type ReserveOutcome =
  | ({ admitted: true } & PeriodSpend)
  /** The estimate did not fit in what the period has left: nothing reserved. */
  | ({ admitted: false } & PeriodSpend);

export interface SettledReservation extends BudgetPeriodRef, PeriodSpend {
  /** This settlement crossed the warning share: tell it, once per budget and period. */
  warn: boolean;
}

export interface BudgetStore {
  /** A workspace's own budgets, by id; with no workspace, every workspace's (by workspace, id). */
  list(workspace_id?: string): Promise<StoredBudget[]>;
  /** Sets (or, with null, removes) a workspace's budget, keeping the change in its audit. */
  set(
    workspace_id: string,
    budget_id: string,
    settings: BudgetSettings | null,
    changed_by: string,
  ): Promise<void>;
  /** A budget's changes, oldest first. */
  changes(workspace_id: string, budget_id: string): Promise<BudgetChange[]>;
  /** What a budget has spent and holds reserved in one period (zeros before its first use). */
  spend(ref: Omit<BudgetPeriodRef, 'limit_nanos'>): Promise<PeriodSpend>;
  /**
   * Reserves `estimate_nanos` for one attempt of an evaluation, if the period's spent + reserved
   * + the estimate stays within the limit (and spent + reserved is below it, for an unknown, 0,
   * estimate). An attempt already holding a reservation is admitted again unchanged.
   */
  reserve(
    key: EvaluationKeyColumns & { attempt: number },
    ref: BudgetPeriodRef,
    estimate_nanos: number,
  ): Promise<ReserveOutcome>;
  /**
   * Settles an attempt's open reservations with what it cost: the estimate leaves the reserved
   * amount and the actual joins the spend. Settling again changes nothing.
   */
  settle(
    key: EvaluationKeyColumns & { attempt: number },
    actual_nanos: number,
    /** A budget's limit now, for its warning (null: the budget is gone, so no warning). */
    limitOf: (ref: Omit<BudgetPeriodRef, 'limit_nanos'>) => number | null,
  ): Promise<SettledReservation[]>;
  /** An evaluation's attempts before `attempt` whose reservations are still open. */
  openAttemptsBefore(key: EvaluationKeyColumns, attempt: number): Promise<number[]>;
  /** What one attempt's usage reports cost (unpriced reports count as nothing). */
  attemptCost(key: EvaluationKeyColumns & { attempt: number }): Promise<number>;
}

const keyWhere =
  'workspace_id = ? AND generation = ? AND participant = ? AND target_key = ? AND attempt = ?';
const keyParams = (key: EvaluationKeyColumns & { attempt: number }) => [
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

export function createBudgetStore(backend: Backend, now: () => Date): BudgetStore {
  return {
    async list(workspace_id) {
      const rows = await backend.read((sql) =>
        workspace_id === undefined
          ? sql.all('SELECT * FROM budgets ORDER BY workspace_id, budget_id', [])
          : sql.all('SELECT * FROM budgets WHERE workspace_id = ? ORDER BY budget_id', [
              workspace_id,
            ]),
      );
      return rows.map((row) => {
        const settings = parseJson<BudgetSettings>(row.settings);
        const workspace = String(row.workspace_id);
        const budget_id = String(row.budget_id);
        return {
          workspace_id: workspace,
          budget_id,
          settings,
          budget: { ...settings, budgetId: budget_id, workspace },
          changed_by: String(row.changed_by),
          changed_at: String(row.changed_at),
        };
      });
    },
    async set(workspace_id, budget_id, settings, changed_by) {
      const at = now().toISOString();
      await backend.transaction(async (sql) => {
        const [last] = await sql.all(
          `SELECT COALESCE(MAX(change), 0) AS change FROM budget_changes
             WHERE workspace_id = ? AND budget_id = ?`,
          [workspace_id, budget_id],
        );
        await sql.run(
          `INSERT INTO budget_changes (workspace_id, budget_id, change, settings, changed_by,
             changed_at) VALUES (?, ?, ?, ?, ?, ?)`,
          [
            workspace_id,
            budget_id,
            asNumber(last?.change ?? 0) + 1,
            settings === null ? null : JSON.stringify(settings),
            changed_by,
            at,
          ],
        );
        if (settings === null) {
          await sql.run('DELETE FROM budgets WHERE workspace_id = ? AND budget_id = ?', [
            workspace_id,
            budget_id,
          ]);
          return;
        }
        await sql.run(
          `INSERT INTO budgets (workspace_id, budget_id, settings, changed_by, changed_at)
             VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, budget_id) DO UPDATE SET settings = excluded.settings,
             changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
          [workspace_id, budget_id, JSON.stringify(settings), changed_by, at],
        );
      });
    },
    async changes(workspace_id, budget_id) {
      const rows = await backend.read((sql) =>
        sql.all(
          `SELECT * FROM budget_changes WHERE workspace_id = ? AND budget_id = ? ORDER BY change`,
          [workspace_id, budget_id],
        ),
      );
      return rows.map((row) => ({
        change: asNumber(row.change),
        settings: row.settings === null ? null : parseJson<BudgetSettings>(row.settings),
        changed_by: String(row.changed_by),
        changed_at: String(row.changed_at),
      }));
    },
    spend: (ref) => backend.read((sql) => periodSpend(sql, ref)),
    reserve: (key, ref, estimate_nanos) =>
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
      }),
    settle: (key, actual_nanos, limitOf) =>
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
      }),
    async openAttemptsBefore(key, attempt) {
      const rows = await backend.read((sql) =>
        sql.all(
          `SELECT DISTINCT attempt FROM budget_reservations
             WHERE workspace_id = ? AND generation = ? AND participant = ? AND target_key = ?
               AND attempt < ? AND actual_nanos IS NULL ORDER BY attempt`,
          [key.workspace_id, key.generation, key.participant, key.target_key, attempt],
        ),
      );
      return rows.map((row) => asNumber(row.attempt));
    },
    async attemptCost(key) {
      const rows = await backend.read((sql) =>
        sql.all(
          `SELECT COALESCE(SUM(cost_nanos), 0) AS cost FROM evaluation_usage WHERE ${keyWhere}`,
          keyParams(key),
        ),
      );
      return asNumber(rows[0]?.cost ?? 0);
    },
  };
}

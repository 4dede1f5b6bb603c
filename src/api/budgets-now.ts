import {
  type Budget,
  type BudgetInForce,
  budgetsInForce,
  everyBudgetInForce,
  periodKey,
  periodStartMs,
} from '../core/index.js';
import type { EvaluationRecords } from '../store/index.js';

// The budgets in force with what their current period has spent and holds reserved, read alike
// for the budgets route (one workspace's) and the API's budget gauges (every workspace's).

export interface BudgetNow extends BudgetInForce {
  periodStartMs: number;
  spentNanos: number;
  reservedNanos: number;
}

/** One workspace's budgets in force now, or, with no workspace, every workspace's. */
export async function budgetsNow(
  store: Pick<EvaluationRecords, 'budgets'>,
  config: readonly Budget[],
  workspaceId: string | undefined,
  atMs: number,
): Promise<BudgetNow[]> {
  const own = (await store.budgets.list(workspaceId)).map((b) => b.budget);
  const inForce =
    workspaceId === undefined
      ? everyBudgetInForce(config, own)
      : budgetsInForce(config, own, workspaceId);
  const now = [];
  for (const entry of inForce) {
    const { period, budgetId } = entry.budget;
    const spend = await store.budgets.spend({
      scope: entry.scope,
      budget_id: budgetId,
      period_key: periodKey(period, atMs),
    });
    now.push({
      ...entry,
      periodStartMs: periodStartMs(period, atMs),
      spentNanos: spend.spent_nanos,
      reservedNanos: spend.reserved_nanos,
    });
  }
  return now;
}

import type { Budget, BudgetSettings } from '../core/index.js';
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

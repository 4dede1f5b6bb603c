import type { Backend } from './backend.js';
import {
  attemptCost,
  openAttemptsBefore,
  reserve,
  settleReservations,
  spendInPeriod,
} from './budget-periods.js';
import { budgetChanges, listBudgets, setBudget } from './budget-settings.js';
import type { BudgetStore } from './budgets.js';

/** The budget store over the backend: its settings, and its periods' spend and reservations. */
export function createBudgetStore(backend: Backend, now: () => Date): BudgetStore {
  return {
    list: (workspace_id) => listBudgets(backend, workspace_id),
    set: (workspace_id, budget_id, settings, changed_by) =>
      setBudget(backend, now, workspace_id, budget_id, settings, changed_by),
    changes: (workspace_id, budget_id) => budgetChanges(backend, workspace_id, budget_id),
    spend: (ref) => spendInPeriod(backend, ref),
    reserve: (key, ref, estimate_nanos) => reserve(backend, key, ref, estimate_nanos),
    settle: (key, actual_nanos, limitOf) => settleReservations(backend, key, actual_nanos, limitOf),
    openAttemptsBefore: (key, attempt) => openAttemptsBefore(backend, key, attempt),
    attemptCost: (key) => attemptCost(backend, key),
  };
}

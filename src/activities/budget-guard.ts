import {
  BUDGET_EXHAUSTED,
  type Budget,
  type BudgetInForce,
  budgetApplies,
  budgetsInForce,
  type ExhaustedAction,
  GLOBAL_SCOPE,
  limitNanosOf,
  nextPeriodStartMs,
  periodKey,
  spendAndLimitText,
  usdOf,
} from '../core/index.js';
import { type Evaluator, estimatedCostNanos } from '../evaluators/index.js';
import type { EvaluatorVersion } from '../metrics/observers.js';
import type { BudgetPeriodRef, EvaluationKeyColumns, EvaluationRecords } from '../store/index.js';

// The budgets around one judged attempt: which are in force, the reservation of its estimate in
// each before the evaluator is called, and the settlement of its actual cost after.

export interface BudgetGuardDeps {
  store: Pick<EvaluationRecords, 'budgets' | 'usage'>;
  /** The config's budgets; a workspace's own (stored) budget of the same id overrides its own. */
  budgets: readonly Budget[];
  now: () => number;
  /** Where a budget's 80 % warning goes. */
  warn: (line: string) => void;
}

type AttemptKey = EvaluationKeyColumns & { attempt: number };

/** `$0.0011 of $0.0010`. */
function spentOf(spentNanos: number, limitNanos: number): string {
  return spendAndLimitText(usdOf(spentNanos), usdOf(limitNanos)).join(' of ');
}

export type Admission =
  | { admitted: true }
  | {
      admitted: false;
      action: ExhaustedAction;
      /** `budget_exhausted: …`, for the ledger. */
      reason: string;
      /** When the exhausted budget's next period starts. */
      untilMs: number;
    };

/** How long a workspace's own budgets are read once for (a change through the API waits as long). */
const STORED_BUDGETS_MS = 1_000;
/** How long a version's measured mean cost stands as its estimate before it is read again. */
const ESTIMATE_MS = 30_000;

/** A value read at most once per `ttlMs` per key (reads at the same moment share one). */
function cached<T>(ttlMs: number, now: () => number, read: (key: string) => Promise<T>) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string): Promise<T> => {
    const entry = entries.get(key);
    if (entry !== undefined && now() - entry.at < ttlMs) return entry.value;
    const value = read(key);
    entries.set(key, { at: now(), value });
    value.catch(() => entries.delete(key));
    return value;
  };
}

export function budgetGuard(deps: BudgetGuardDeps) {
  // The cache's clock is the process's, not the budgets' (which tests move).
  const storedBudgets = cached(STORED_BUDGETS_MS, Date.now, (workspaceId) =>
    deps.store.budgets.list(workspaceId),
  );
  const measured = cached(ESTIMATE_MS, Date.now, (participant) =>
    deps.store.usage.measuredCost(participant),
  );
  const inForce = async (ref: EvaluatorVersion, workspaceId: string): Promise<BudgetInForce[]> => {
    const own = (await storedBudgets(workspaceId)).map((b) => b.budget);
    return budgetsInForce(deps.budgets, own, workspaceId).filter(({ budget }) =>
      budgetApplies(budget, ref, workspaceId),
    );
  };
  const periodRef = ({ scope, budget }: BudgetInForce, atMs: number): BudgetPeriodRef => ({
    scope,
    budget_id: budget.budgetId,
    period_key: periodKey(budget.period, atMs),
    limit_nanos: limitNanosOf(budget),
  });

  const settle = async (key: AttemptKey, actualNanos: number, held: readonly BudgetInForce[]) => {
    // No budget was in force at the reserve: nothing to settle, and no write.
    if (held.length === 0) return;
    const limits = new Map(
      held.map((b) => [`${b.scope}|${b.budget.budgetId}`, limitNanosOf(b.budget)]),
    );
    const settled = await deps.store.budgets.settle(
      key,
      actualNanos,
      (ref) => limits.get(`${ref.scope}|${ref.budget_id}`) ?? null,
    );
    for (const period of settled) {
      if (!period.warn) continue;
      deps.warn(
        `budget ${period.budget_id} (${period.scope === GLOBAL_SCOPE ? 'every workspace' : `workspace ${period.scope}`}, period from ${period.period_key}) has spent ${spentOf(period.spent_nanos, period.limit_nanos)}: past 80 %`,
      );
    }
  };

  return {
    /**
     * Reserves the evaluator's estimate (its measured mean, else its declared one, else 0) in
     * every budget in force, or none: the first budget whose period is
     * spent refuses, and what the others had reserved is given back.
     */
    async admit(
      key: AttemptKey,
      evaluator: Evaluator,
    ): Promise<{ admission: Admission; held: BudgetInForce[] }> {
      const budgets = await inForce(evaluator, key.workspace_id);
      if (budgets.length === 0) return { admission: { admitted: true }, held: [] };
      const estimateNanos =
        estimatedCostNanos(evaluator, await measured(evaluator.participant)) ?? 0;
      // An earlier attempt killed between its call and its settlement left its reservation open:
      // what it spent is in its usage rows, so it is settled from them, never leaked.
      for (const attempt of await deps.store.budgets.openAttemptsBefore(key, key.attempt)) {
        const earlier = { ...key, attempt };
        await settle(earlier, await deps.store.budgets.attemptCost(earlier), budgets);
      }
      const at = deps.now();
      for (const budget of budgets) {
        const outcome = await deps.store.budgets.reserve(key, periodRef(budget, at), estimateNanos);
        if (outcome.admitted) continue;
        await settle(key, 0, budgets);
        const { budgetId, period, onExhausted } = budget.budget;
        return {
          admission: {
            admitted: false,
            action: onExhausted,
            reason: `${BUDGET_EXHAUSTED}: budget ${budgetId} spent ${spentOf(outcome.spent_nanos, limitNanosOf(budget.budget))} this ${period}`,
            untilMs: nextPeriodStartMs(period, at),
          },
          held: [],
        };
      }
      return { admission: { admitted: true }, held: budgets };
    },
    /** Settles the attempt's reservations with what it cost. */
    settle,
  };
}

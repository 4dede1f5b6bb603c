import { Gauge, type Registry } from 'prom-client';
import { nanosOf, usdOf } from '../core/index.js';
import { sharedRead } from './shared-read.js';

// Budgets' gauges, read at each scrape: the API process passes the store's figures for every
// budget in force. Budget ids are declared by the config or a workspace's admins, so that label
// stays bounded; workspaces are not (one budget id may count in each of thousands), so a budget's
// workspaces are summed, and the share gauge keeps the fullest of them, which is what to alert on.

/** One budget in force in one scope (a workspace, or every workspace together), in USD. */
export interface BudgetFigures {
  budget: string;
  scope: string;
  limitUsd: number;
  spentUsd: number;
  reservedUsd: number;
}

interface BudgetTotals {
  limitUsd: number;
  spentUsd: number;
  reservedUsd: number;
  /** The highest share of its limit one scope's current period has spent. */
  usedRatio: number;
}

/** Money summed in whole nano-dollars and converted once: USD added as floats drifts. */
function totalsByBudget(figures: readonly BudgetFigures[]): Map<string, BudgetTotals> {
  const nanos = new Map<
    string,
    { limit: number; spent: number; reserved: number; ratio: number }
  >();
  for (const f of figures) {
    const t = nanos.get(f.budget) ?? { limit: 0, spent: 0, reserved: 0, ratio: 0 };
    t.limit += nanosOf(f.limitUsd);
    t.spent += nanosOf(f.spentUsd);
    t.reserved += nanosOf(f.reservedUsd);
    t.ratio = Math.max(t.ratio, f.spentUsd / f.limitUsd);
    nanos.set(f.budget, t);
  }
  return new Map(
    [...nanos].map(([budget, t]) => [
      budget,
      {
        limitUsd: usdOf(t.limit),
        spentUsd: usdOf(t.spent),
        reservedUsd: usdOf(t.reserved),
        usedRatio: t.ratio,
      },
    ]),
  );
}

export function budgetMetrics(
  registry: Registry,
  read: () => Promise<readonly BudgetFigures[]>,
): void {
  const totals = sharedRead(async () => totalsByBudget(await read()));
  const gauge = (name: string, help: string, pick: keyof BudgetTotals) =>
    new Gauge({
      name,
      help,
      labelNames: ['budget'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const [budget, t] of await totals()) this.set({ budget }, t[pick]);
      },
    });
  gauge(
    'evalflow_budget_limit_usd',
    "Each budget's limit per period, in USD, summed over the workspaces it counts in",
    'limitUsd',
  );
  gauge(
    'evalflow_budget_spent_usd',
    "What each budget's current period has spent, in USD, summed over its workspaces",
    'spentUsd',
  );
  gauge(
    'evalflow_budget_reserved_usd',
    "What calls in flight hold reserved in each budget's current period, in USD",
    'reservedUsd',
  );
  gauge(
    'evalflow_budget_used_ratio',
    "The largest share of its limit a budget's current period has spent in one workspace (or, global, in all)",
    'usedRatio',
  );
}

import { z } from 'zod';
import { Id } from './ids.js';
import { evaluatorId } from './keys.js';
import { nanosOf } from './money.js';

// Budgets: a limit in money per evaluator (or one version) and UTC period, for one workspace or
// all together, and what happens to an evaluation once it is spent. The period words and their
// arithmetic are defined here once; the config, the store, the activity and the API derive theirs.

export const budgetPeriods = ['day', 'week', 'month'] as const;
export type BudgetPeriod = (typeof budgetPeriods)[number];

export const exhaustedActions = ['skip', 'defer'] as const;
/** `skip`: settle as skipped (`BUDGET_EXHAUSTED`); `defer`: wait for the next period, then judge. */
export type ExhaustedAction = (typeof exhaustedActions)[number];

/** The ledger's reason for an evaluation skipped because a budget was spent. */
export const BUDGET_EXHAUSTED = 'budget_exhausted';

/** The share of a limit at which a budget warns, once per period. */
export const BUDGET_WARNING_SHARE = 0.8;

const EvaluatorName = /^[A-Za-z0-9_.-]+(@[A-Za-z0-9_.-]+)?$/;

/** A budget's settings, as the config and the API take them (money in USD). */
export const BudgetSettings = z.strictObject({
  /** An evaluator by name (every version) or one version, `name@version`. */
  evaluator: z
    .string()
    .max(257)
    .regex(EvaluatorName, 'an evaluator is written name or name@version'),
  period: z.enum(budgetPeriods),
  limitUsd: z.number().positive().finite(),
  /** Absent: a global budget over every workspace together. */
  workspace: Id.optional(),
  onExhausted: z.enum(exhaustedActions),
});
export type BudgetSettings = z.infer<typeof BudgetSettings>;

export const Budget = BudgetSettings.extend({ budgetId: Id });
export type Budget = z.infer<typeof Budget>;

/** Where a budget counts, as its spend is kept: a workspace's id, or this for a global budget. */
export const GLOBAL_SCOPE = '*';

export interface BudgetInForce {
  budget: Budget;
  /** The budget's workspace, or `GLOBAL_SCOPE`. */
  scope: string;
  source: 'config' | 'workspace';
}

/**
 * Every budget in force over a store's workspaces, each once: the config's, and each workspace's
 * own (`own`, across workspaces), which override the config's budget of the same id for their
 * workspace only; a global budget is the config's alone, so no workspace can lift it.
 */
export function everyBudgetInForce(
  config: readonly Budget[],
  own: readonly Budget[],
): BudgetInForce[] {
  const overridden = new Set(own.map((b) => JSON.stringify([b.workspace, b.budgetId])));
  return [
    ...config
      .filter((b) => !overridden.has(JSON.stringify([b.workspace, b.budgetId])))
      .map((budget) => ({
        budget,
        scope: budget.workspace ?? GLOBAL_SCOPE,
        source: 'config' as const,
      })),
    ...own.map((budget) => ({
      budget,
      scope: budget.workspace ?? GLOBAL_SCOPE,
      source: 'workspace' as const,
    })),
  ];
}

/** The budgets in force in one workspace: the global ones, and its own (`own`, as stored). */
export const budgetsInForce = (
  config: readonly Budget[],
  own: readonly Budget[],
  workspaceId: string,
): BudgetInForce[] =>
  everyBudgetInForce(
    config.filter((b) => b.workspace === undefined || b.workspace === workspaceId),
    own.filter((b) => b.workspace === workspaceId),
  );

/** Whether a budget counts an evaluation by this evaluator version in this workspace. */
export function budgetApplies(
  budget: Pick<Budget, 'evaluator' | 'workspace'>,
  ref: { name: string; version: string },
  workspaceId: string,
): boolean {
  if (budget.workspace !== undefined && budget.workspace !== workspaceId) return false;
  return budget.evaluator === ref.name || budget.evaluator === evaluatorId(ref);
}

export const limitNanosOf = (budget: Pick<Budget, 'limitUsd'>): number => nanosOf(budget.limitUsd);

const DAY_MS = 86_400_000;

/** The start of the UTC period holding `atMs`: midnight; Monday's midnight; the 1st's midnight. */
export function periodStartMs(period: BudgetPeriod, atMs: number): number {
  const at = new Date(atMs);
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  switch (period) {
    case 'day':
      return midnight;
    case 'week':
      // getUTCDay: Sunday 0 … Saturday 6; weeks start on Monday.
      return midnight - ((at.getUTCDay() + 6) % 7) * DAY_MS;
    case 'month':
      return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1);
  }
}

/** The start of the period after the one holding `atMs`. */
export function nextPeriodStartMs(period: BudgetPeriod, atMs: number): number {
  const start = new Date(periodStartMs(period, atMs));
  switch (period) {
    case 'day':
      return start.getTime() + DAY_MS;
    case 'week':
      return start.getTime() + 7 * DAY_MS;
    case 'month':
      return Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  }
}

/** The period holding `atMs` as the store keys it: its start's UTC date, `YYYY-MM-DD`. */
export const periodKey = (period: BudgetPeriod, atMs: number): string =>
  new Date(periodStartMs(period, atMs)).toISOString().slice(0, 10);

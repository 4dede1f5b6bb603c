import { z } from 'zod';
import { BudgetSettings, Id } from '../../core/index.js';
import { OPERATORS, READERS } from './callers.js';
import { defineRoutes } from './contract.js';

// Budgets (docs/api.md#budgets): the ones in force in this workspace (the config's global and
// workspace budgets, and the workspace's own), each with its current period's spend, and the
// workspace's own set and removed by its admins and the system, every change kept with who made
// it.

const tags = ['budgets'];

export const BudgetParams = z.object({ budgetId: Id });
/** A workspace's own budget: its settings, the workspace being the caller's. */
export const SetBudgetBody = BudgetSettings.omit({ workspace: true });
export const WireBudget = BudgetSettings.extend({
  budgetId: Id,
  source: z.enum(['config', 'workspace']),
  /** When the current period started (UTC), what it spent and what calls in flight hold. */
  periodStart: z.iso.datetime(),
  spentUsd: z.number(),
  reservedUsd: z.number(),
});
export const BudgetsReply = z.object({ budgets: z.array(WireBudget) });
export const BudgetChangesReply = z.object({
  changes: z.array(
    z.object({
      change: z.int(),
      /** Null: removed. */
      settings: SetBudgetBody.nullable(),
      changedBy: z.string(),
      changedAt: z.string(),
    }),
  ),
});

export const budgetRoutes = defineRoutes({
  budgets: {
    method: 'GET',
    path: '/v1/budgets',
    allow: READERS,
    tags,
    summary: "The budgets in force in this workspace, with their current period's spend",
    answers: { 200: BudgetsReply },
  },
  setBudget: {
    method: 'PUT',
    path: '/v1/budgets/:budgetId',
    allow: OPERATORS,
    tags,
    summary: "Set one of this workspace's own budgets; every change is kept with who made it",
    params: BudgetParams,
    body: SetBudgetBody,
    answers: { 200: BudgetsReply },
  },
  removeBudget: {
    method: 'DELETE',
    path: '/v1/budgets/:budgetId',
    allow: OPERATORS,
    tags,
    summary: "Remove one of this workspace's own budgets (the config's stay in force)",
    params: BudgetParams,
    answers: { 200: BudgetsReply },
  },
  budgetChanges: {
    method: 'GET',
    path: '/v1/budgets/:budgetId/changes',
    allow: OPERATORS,
    tags,
    summary:
      "Every change of one of this workspace's own budgets, oldest first (404 for one it never set)",
    params: BudgetParams,
    answers: { 200: BudgetChangesReply },
  },
});

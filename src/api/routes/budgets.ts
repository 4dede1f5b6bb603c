import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BudgetSettings, Id, notFound, participantOf, usdOf } from '../../core/index.js';
import { actorOf } from '../../wire/principals.js';
import { budgetsNow } from '../budgets-now.js';
import { OPERATORS, READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, type RouteDeps } from './context.js';

// Budgets (docs/api.md#budgets): the ones in force in this workspace (the config's global and
// workspace budgets, and the workspace's own), each with its current period's spend, and the
// workspace's own set and removed by its admins and the system, every change kept with who made
// it. A workspace's own budget overrides the config's budget of the same id for that workspace; a
// global budget is the config's alone, so no workspace can lift it.

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

async function wireBudgets(deps: RouteDeps, workspaceId: string) {
  const budgets = await budgetsNow(deps.store, deps.app.budgets, workspaceId, Date.now());
  return budgets.map(({ budget, source, periodStartMs, spentNanos, reservedNanos }) => ({
    ...budget,
    source,
    periodStart: new Date(periodStartMs).toISOString(),
    spentUsd: usdOf(spentNanos),
    reservedUsd: usdOf(reservedNanos),
  }));
}

/** Sets the caller's workspace's own budget (null removes it), as the caller; the budgets after. */
async function setOwnBudget(
  deps: RouteDeps,
  request: FastifyRequest,
  budgetId: string,
  settings: BudgetSettings | null,
) {
  const { workspaceId, principal } = callerOf(request);
  await deps.store.budgets.set(workspaceId, budgetId, settings, participantOf(actorOf(principal)));
  return { budgets: await wireBudgets(deps, workspaceId) };
}

export const registerBudgets = bindRoutes(budgetRoutes, {
  budgets: async ({ request, deps }) => ({
    budgets: await wireBudgets(deps, callerOf(request).workspaceId),
  }),

  setBudget: async ({ params, body, request, deps }) => {
    const known = deps.app.evaluators
      .list()
      .some((e) => e.name === body.evaluator || e.id === body.evaluator);
    if (!known) throw refuse(notFound('evaluator', body.evaluator));
    return setOwnBudget(deps, request, params.budgetId, body);
  },

  removeBudget: async ({ params, request, deps }) => {
    const own = await deps.store.budgets.list(callerOf(request).workspaceId);
    if (!own.some((b) => b.budget_id === params.budgetId)) {
      throw refuse(notFound('budget', params.budgetId));
    }
    return setOwnBudget(deps, request, params.budgetId, null);
  },

  budgetChanges: async ({ params, request, deps }) => {
    const changes = await deps.store.budgets.changes(
      callerOf(request).workspaceId,
      params.budgetId,
    );
    // A budget this workspace never set has no history here: not found, as another's is.
    if (changes.length === 0) throw refuse(notFound('budget', params.budgetId));
    return {
      changes: changes.map((c) => ({
        change: c.change,
        settings: c.settings === null ? null : SetBudgetBody.parse(c.settings),
        changedBy: c.changed_by,
        changedAt: c.changed_at,
      })),
    };
  },
});

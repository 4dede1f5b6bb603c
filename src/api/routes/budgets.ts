import type { FastifyRequest } from 'fastify';
import { type BudgetSettings, notFound, participantOf, usdOf } from '../../core/index.js';
import { actorOf } from '../../wire/principals.js';
import { budgetsNow } from '../budgets-now.js';
import { budgetRoutes, SetBudgetBody } from '../contracts/budgets.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, type RouteDeps } from './context.js';

// Budgets (contracts/budgets.ts). A workspace's own budget overrides the config's budget of the
// same id for that workspace; a global budget is the config's alone, so no workspace can lift it.

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

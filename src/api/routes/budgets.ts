import { z } from 'zod';
import { BudgetSettings, Id, notFound, participantOf, usdOf } from '../../core/index.js';
import { actorOf } from '../../wire/principals.js';
import { budgetsNow } from '../budgets-now.js';
import { refusalResponses, refuse } from '../errors.js';
import { callerOf, type Register, type RouteDeps } from './context.js';

// Budgets (docs/api.md#budgets): the ones in force in this workspace (the config's global and
// workspace budgets, and the workspace's own), each with its current period's spend, and the
// workspace's own set and removed by its admins and the system, every change kept with who made
// it. A workspace's own budget overrides the config's budget of the same id for that workspace;
// a global budget is the config's alone, so no workspace can lift it.

const readers = ['system', 'admin', 'agent', 'reviewer'] as const;
const owners = ['system', 'admin'] as const;

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

export const registerBudgets: Register = (api, deps) => {
  api.get('/v1/budgets', {
    config: { allow: readers },
    schema: {
      tags: ['budgets'],
      summary: "The budgets in force in this workspace, with their current period's spend",
      response: { 200: BudgetsReply, ...refusalResponses },
    },
    handler: async (request) => ({
      budgets: await wireBudgets(deps, callerOf(request).workspaceId),
    }),
  });

  api.put('/v1/budgets/:budgetId', {
    config: { allow: owners },
    schema: {
      tags: ['budgets'],
      summary: "Set one of this workspace's own budgets; every change is kept with who made it",
      params: BudgetParams,
      body: SetBudgetBody,
      response: { 200: BudgetsReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { workspaceId, principal } = callerOf(request);
      const { evaluator } = request.body;
      const known = deps.app.evaluators
        .list()
        .some((e) => e.name === evaluator || e.id === evaluator);
      if (!known) throw refuse(notFound('evaluator', evaluator));
      await deps.store.budgets.set(
        workspaceId,
        request.params.budgetId,
        request.body,
        participantOf(actorOf(principal)),
      );
      return { budgets: await wireBudgets(deps, workspaceId) };
    },
  });

  api.delete('/v1/budgets/:budgetId', {
    config: { allow: owners },
    schema: {
      tags: ['budgets'],
      summary: "Remove one of this workspace's own budgets (the config's stay in force)",
      params: BudgetParams,
      response: { 200: BudgetsReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { workspaceId, principal } = callerOf(request);
      const own = await deps.store.budgets.list(workspaceId);
      if (!own.some((b) => b.budget_id === request.params.budgetId)) {
        throw refuse(notFound('budget', request.params.budgetId));
      }
      await deps.store.budgets.set(
        workspaceId,
        request.params.budgetId,
        null,
        participantOf(actorOf(principal)),
      );
      return { budgets: await wireBudgets(deps, workspaceId) };
    },
  });

  api.get('/v1/budgets/:budgetId/changes', {
    config: { allow: owners },
    schema: {
      tags: ['budgets'],
      summary:
        "Every change of one of this workspace's own budgets, oldest first (404 for one it never set)",
      params: BudgetParams,
      response: { 200: BudgetChangesReply, ...refusalResponses },
    },
    handler: async (request) => {
      const changes = await deps.store.budgets.changes(
        callerOf(request).workspaceId,
        request.params.budgetId,
      );
      // A budget this workspace never set has no history here: not found, as another's is.
      if (changes.length === 0) throw refuse(notFound('budget', request.params.budgetId));
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
};

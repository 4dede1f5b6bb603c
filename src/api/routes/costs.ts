import { z } from 'zod';
import { forbidden, validationFailed } from '../../core/index.js';
import {
  CostDimensions,
  CostsReply,
  DEFAULT_COST_DIMENSIONS,
  EvaluatorFilter,
  readCosts,
  UtcDay,
} from '../../wire/costs.js';
import type { VerifiedCaller } from '../../wire/credentials.js';
import { READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';

// What judging cost (GET /v1/costs): the usage ledger's spend summed per evaluator version (or
// evaluator), workspace, UTC day and model. A workspace's key reads its workspace; the system's
// key reads every workspace, or the one it names.

export const CostsQuery = z.object({
  /** Comma list of version, evaluator, workspace, day, model (default `version,day`). */
  by: CostDimensions.optional(),
  /** First and last UTC day included, `2026-05-01`. */
  from: UtcDay.optional(),
  to: UtcDay.optional(),
  /** `name` (every version) or `name@version`. */
  evaluator: EvaluatorFilter.optional(),
  /** The system's key only: one workspace (default: every workspace). */
  workspace: z.string().min(1).max(200).optional(),
});
export type { CostDimension } from '../../wire/costs.js';
export { CostsReply };

export const costRoutes = defineRoutes({
  costs: {
    method: 'GET',
    path: '/v1/costs',
    allow: READERS,
    tags: ['reading'],
    summary: 'What judging cost: spend per evaluator version, workspace, day and model',
    description:
      'Sums every usage report the evaluators made (tokens, and cost in dollars from the ' +
      'ledger’s nano-dollars), grouped by `by`. A report with no cost (no `costUsd` and no ' +
      'price for its model) adds its tokens and counts in `unpricedReports`, never as $0. ' +
      'A workspace’s key reads its own workspace; the system’s key reads every workspace ' +
      'unless it names one with `workspace`.',
    query: CostsQuery,
    answers: { 200: CostsReply },
  },
});

/**
 * The workspace a caller's costs cover, null for every one: a workspace's key reads its own; the
 * system's key reads every workspace, or the one it names.
 */
function costsWorkspace(caller: VerifiedCaller, workspace: string | undefined): string | null {
  if (caller.principal.kind === 'system') return workspace ?? null;
  if (workspace !== undefined && workspace !== caller.workspaceId) {
    throw refuse(forbidden(`a ${caller.principal.kind} key reads its own workspace's costs only`));
  }
  return caller.workspaceId;
}

export const registerCosts = bindRoutes(costRoutes, {
  costs: async ({ query: { by, from, to, evaluator, workspace }, request, deps }) => {
    const covered = costsWorkspace(callerOf(request), workspace);
    if (from !== undefined && to !== undefined && from > to) {
      throw refuse(validationFailed(`from ${from} is after to ${to}`));
    }
    return readCosts(deps.store, {
      by: by ?? DEFAULT_COST_DIMENSIONS,
      workspace: covered,
      from,
      to,
      evaluator,
    });
  },
});

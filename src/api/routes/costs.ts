import { forbidden, validationFailed } from '../../core/index.js';
import { DEFAULT_COST_DIMENSIONS, readCosts } from '../../wire/costs.js';
import { costRoutes } from '../contracts/costs.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';

// What judging cost (contracts/costs.ts). A workspace's key reads its workspace; the system's
// key reads every workspace, or the one it names.

export const registerCosts = bindRoutes(costRoutes, {
  costs: async ({ query: { by, from, to, evaluator, workspace }, request, deps }) => {
    const caller = callerOf(request);
    const system = caller.principal.kind === 'system';
    if (workspace !== undefined && !system && workspace !== caller.workspaceId) {
      throw refuse(
        forbidden(`a ${caller.principal.kind} key reads its own workspace's costs only`),
      );
    }
    if (from !== undefined && to !== undefined && from > to) {
      throw refuse(validationFailed(`from ${from} is after to ${to}`));
    }
    return readCosts(deps.store, {
      by: by ?? DEFAULT_COST_DIMENSIONS,
      workspace: system ? (workspace ?? null) : caller.workspaceId,
      from,
      to,
      evaluator,
    });
  },
});

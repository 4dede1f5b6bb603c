import { ruleSettingsOf } from '../../config/index.js';
import { rulesInForce } from '../../core/index.js';
import { wireRule, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { ruleRoutes } from '../contracts/rules.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// Evaluation rules (contracts/rules.ts): the app's defaults, overridden per evaluator version by
// the workspace's own.

export const registerRules = bindRoutes(ruleRoutes, {
  rules: async ({ request, deps }) => {
    const own = await deps.store.rules(callerOf(request).workspaceId);
    const mine = new Map(own.map((rule) => [rule.evaluator, rule]));
    return {
      rules: rulesInForce(deps.app.rules, own).map((rule) => {
        const stored = mine.get(rule.evaluator);
        return stored ? wireRule(stored, 'workspace') : wireRule(rule, 'config');
      }),
    };
  },
  setRule: async ({ params, body, request, deps }) => {
    const outcome = await execute(deps, request, actorOf(callerOf(request).principal), {
      type: 'set_evaluation_rule',
      evaluator: params.evaluator,
      ...ruleSettingsOf(body),
    });
    return written(outcome.events);
  },
});

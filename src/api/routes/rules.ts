import { z } from 'zod';
import { RuleSettingsInput, ruleSettingsOf } from '../../config/index.js';
import { type EvaluationRule, rulesInForce } from '../../core/index.js';
import { WireRule, Written, wireRule, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { EvaluatorParams } from '../contracts/params.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// Evaluation rules: the app's defaults, overridden per evaluator version by the workspace's own.

export const RulesReply = z.object({ rules: z.array(WireRule) });
export const SetRuleBody = RuleSettingsInput;

export const ruleRoutes = defineRoutes({
  rules: {
    method: 'GET',
    path: '/v1/evaluation-rules',
    allow: READERS,
    tags: ['rules'],
    summary: 'The rules in force in this workspace, each with where it comes from',
    answers: { 200: RulesReply },
  },
  setRule: {
    method: 'PUT',
    path: '/v1/evaluation-rules/:evaluator',
    allow: ['admin'],
    tags: ['rules'],
    summary: "Set this workspace's rule for one evaluator version; later runs follow it",
    params: EvaluatorParams,
    body: SetRuleBody,
    answers: { 200: Written },
  },
});

/** The rules in force, each with where it comes from: the workspace's own, else the config's. */
function wireRulesInForce(
  defaults: readonly EvaluationRule[],
  own: readonly (EvaluationRule & { set_by?: string; set_at?: string })[],
) {
  const mine = new Map(own.map((rule) => [rule.evaluator, rule]));
  return rulesInForce(defaults, own).map((rule) => {
    const stored = mine.get(rule.evaluator);
    return stored ? wireRule(stored, 'workspace') : wireRule(rule, 'config');
  });
}

export const registerRules = bindRoutes(ruleRoutes, {
  rules: async ({ request, deps }) => {
    const own = await deps.store.rules(callerOf(request).workspaceId);
    return { rules: wireRulesInForce(deps.app.rules, own) };
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

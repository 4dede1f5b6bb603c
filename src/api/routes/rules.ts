import { z } from 'zod';
import { RuleSettingsInput, ruleSettingsOf } from '../../config/index.js';
import { EvaluatorId, rulesInForce } from '../../core/index.js';
import { WireRule, Written, wireRule, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { refusalResponses } from '../errors.js';
import { callerOf, execute, type Register } from './context.js';

// Evaluation rules: the app's defaults, overridden per evaluator version by the workspace's own.

// Each route's body and answer, named so that the HTTP client's types are these very schemas.
export const RulesReply = z.object({ rules: z.array(WireRule) });
export const SetRuleBody = RuleSettingsInput;

export const registerRules: Register = (api, deps) => {
  api.get('/v1/evaluation-rules', {
    config: { allow: ['system', 'admin', 'agent', 'reviewer'] },
    schema: {
      tags: ['rules'],
      summary: 'The rules in force in this workspace, each with where it comes from',
      response: { 200: RulesReply, ...refusalResponses },
    },
    handler: async (request) => {
      const own = await deps.store.rules(callerOf(request).workspaceId);
      const mine = new Map(own.map((rule) => [rule.evaluator, rule]));
      return {
        rules: rulesInForce(deps.app.rules, own).map((rule) => {
          const stored = mine.get(rule.evaluator);
          return stored ? wireRule(stored, 'workspace') : wireRule(rule, 'config');
        }),
      };
    },
  });

  api.put('/v1/evaluation-rules/:evaluator', {
    config: { allow: ['admin'] },
    schema: {
      tags: ['rules'],
      summary: "Set this workspace's rule for one evaluator version; later runs follow it",
      params: z.object({ evaluator: EvaluatorId }),
      body: SetRuleBody,
      response: { 200: Written, ...refusalResponses },
    },
    handler: async (request) => {
      const outcome = await execute(deps, request, actorOf(callerOf(request).principal), {
        type: 'set_evaluation_rule',
        evaluator: request.params.evaluator,
        ...ruleSettingsOf(request.body),
      });
      return written(outcome.events);
    },
  });
};

import { z } from 'zod';
import { RuleSettingsInput } from '../../config/index.js';
import { WireRule, Written } from '../../wire/entities.js';
import { READERS } from './callers.js';
import { defineRoutes } from './contract.js';
import { EvaluatorParams } from './params.js';

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

import { z } from 'zod';
import { EvaluatorId } from '../../core/index.js';
import { WireBacktest } from '../../wire/backtest.js';
import { WireJudgeVersion } from '../../wire/judge-versions.js';
import { defineRoutes } from './contract.js';

// LLM judges' versions: those the app declares in code and those recorded as data in the
// workspace (tuned from reviewers' verdicts: `evalflow judges tune`).

export const JudgeVersionsReply = z.object({ versions: z.array(WireJudgeVersion) });

export const BacktestQuery = z.strictObject({
  /** The reviewers' verdicts: `reviewers:type.field`. */
  against: z.string().min(1),
  /** The judge's field (default: the reviewers' field's name). */
  field: z.string().min(1).optional(),
});

export const judgeRoutes = defineRoutes({
  judgeVersions: {
    method: 'GET',
    path: '/v1/judge-versions',
    allow: ['system', 'admin', 'agent', 'reviewer'],
    tags: ['rules'],
    summary: "The LLM judges' versions: declared in code, and recorded as data in this workspace",
    description:
      'A recorded version says what it was tuned from, how many few-shot examples it carries and how many targets were held out for its backtest.',
    answers: { 200: JudgeVersionsReply },
  },
  judgeBacktest: {
    method: 'GET',
    path: '/v1/judge-versions/:version/backtest',
    allow: ['system', 'admin', 'agent', 'reviewer'],
    tags: ['rules'],
    summary: 'A recorded judge version against its base on its held-out targets',
    description:
      'From the verdicts stored on the held-out targets (a backfill with `selection.targets` judges them): ' +
      'κ of each version against the reviewers with its 95 % interval, the paired difference ' +
      '(a bootstrap over the targets), McNemar’s test, the confusion matrices and the verdicts ' +
      'that changed. A target lacking a verdict is listed as incomplete.',
    params: z.strictObject({ version: EvaluatorId }),
    query: BacktestQuery,
    answers: { 200: WireBacktest },
  },
});

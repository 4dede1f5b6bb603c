import { z } from 'zod';
import { WireJudgeVersion } from '../../wire/judge-versions.js';
import { defineRoutes } from './contract.js';

// LLM judges' versions: those the app declares in code and those recorded as data in the
// workspace (tuned from reviewers' verdicts: `evalflow judges tune`).

export const JudgeVersionsReply = z.object({ versions: z.array(WireJudgeVersion) });

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
});

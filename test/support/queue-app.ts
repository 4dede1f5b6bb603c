import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { answerLengthEvaluator } from '../../src/evaluators/index.js';

// The app the review queues' tests run: reviewers' verdicts on turns and messages (a HUMAN score
// config), users' star ratings of answers, one evaluator on answers, and a default queue `triage`
// that takes turns.

export const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['turn', 'message'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']), note: z.string().default('') }),
});
export const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean(), stars: z.int().min(1).max(5) }),
});

export const queueApp = defineConfig({
  feedbackTypes: [reviewVerdict, helpfulness],
  evaluators: [answerLengthEvaluator()],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
  reviewQueues: [
    {
      queueId: 'triage',
      feedbackType: reviewVerdict,
      targetKinds: ['turn'],
      instructions: '# Triage\nJudge the **whole** run.',
    },
  ],
});

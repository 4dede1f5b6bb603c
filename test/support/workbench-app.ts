import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { defineEvaluator } from '../../src/evaluators/index.js';

// The app the reviewers' page is tested and measured with: reviewers judge answers, whole runs
// and artifact versions with a verdict, stars and a note (a HUMAN score config of a CATEGORICAL,
// a NUMERIC and a TEXT field), users rate answers, and a judge gives a verdict with a confidence
// on every answer. Its queues: `answers` (answers, the judge's verdicts shown, instructions in
// Markdown), `artifacts`, `expiring` (the shortest lease), `pairs` (for two reviewers at once),
// `turns` (whole runs, with the steps read from their spans).

export const answerReview = defineFeedbackType({
  name: 'answer_review',
  targets: ['message', 'turn', 'artifact'],
  source: 'HUMAN',
  configName: 'answer_review',
  schema: z.object({
    verdict: z.enum(['pass', 'fail', 'unsure']).describe('Does the answer do what was asked?'),
    stars: z.int().min(1).max(5).describe('How good is it'),
    note: z.string().default(''),
  }),
});

export const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean(), stars: z.int().min(1).max(5) }),
});

/** A judge that fails answers promising what it cannot know, with a confidence. */
export const refundJudge = defineEvaluator({
  name: 'refund_judge',
  version: '2',
  feedbackType: defineFeedbackType({
    name: 'refund_judgement',
    targets: ['message'],
    schema: z.object({ verdict: z.enum(['pass', 'fail']), confidence: z.number().min(0).max(1) }),
  }),
  targets: ['message'],
  source: 'JUDGE',
  evaluate: (subject) => {
    const content = subject.kind === 'message' ? subject.message.content : '';
    const promises = /tomorrow|guarantee/i.test(content);
    return promises
      ? { verdict: 'fail' as const, confidence: 0.58 }
      : { verdict: 'pass' as const, confidence: 0.91 };
  },
});

export const INSTRUCTIONS = [
  '## How to judge an answer',
  '',
  '- **pass**: it answers the question and promises nothing the team cannot keep;',
  '- **fail**: it is wrong, rude, or promises a date;',
  '- _unsure_: say why in the note.',
  '',
  'See [the refund policy](https://example.org/refunds). Never follow [this link](javascript:window.__pwned=1).',
  '',
  '<img src=x onerror="window.__pwned=1"> <script>window.__pwned=1</script>',
].join('\n');

const queue = {
  feedbackType: answerReview,
  instructions: INSTRUCTIONS,
} as const;

export const workbenchApp = defineConfig({
  feedbackTypes: [answerReview, helpfulness],
  evaluators: [refundJudge],
  rules: [{ evaluator: 'refund_judge@2', targets: ['message'] }],
  scoreConfigs: { answer_review: { source: 'HUMAN' } },
  reviewQueues: [
    { ...queue, queueId: 'answers', targetKinds: ['message'], showAutomatedVerdicts: true },
    { ...queue, queueId: 'artifacts', targetKinds: ['artifact'] },
    { ...queue, queueId: 'expiring', targetKinds: ['message'], leaseSeconds: 30 },
    { ...queue, queueId: 'pairs', targetKinds: ['message'] },
    { ...queue, queueId: 'turns', targetKinds: ['turn'] },
  ],
});

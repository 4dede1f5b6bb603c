import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { answerLengthEvaluator, artifactSchemaEvaluator } from '../../src/evaluators/index.js';

// The app the HTTP client's tests run the API with: a user rating, a reviewer's verdict (a HUMAN
// score config), and two evaluators, one on messages and one on report artifacts.

const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean(), stars: z.int().min(1).max(5) }),
});
const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['turn', 'message'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']), note: z.string().default('') }),
});

export const clientTestApp = defineConfig({
  feedbackTypes: [helpfulness, reviewVerdict],
  evaluators: [
    answerLengthEvaluator(),
    artifactSchemaEvaluator({ schemas: { report: z.object({ title: z.string() }) } }),
  ],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
});

// The app the Python client's tests run `evalflow start` with: the quickstart's feedback types
// (so examples/host.py runs against it unchanged), an evaluator of messages and one of artifact
// versions (for re-evaluations), and a review queue of runs.
import {
  answerLengthEvaluator,
  artifactSchemaEvaluator,
  defineConfig,
  defineFeedbackType,
} from 'evalflow';
import { z } from 'zod';

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

export default defineConfig({
  feedbackTypes: [helpfulness, reviewVerdict],
  evaluators: [
    answerLengthEvaluator(),
    artifactSchemaEvaluator({ schemas: { report: z.object({ title: z.string() }) } }),
  ],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
  reviewQueues: [{ queueId: 'triage', feedbackType: reviewVerdict, targetKinds: ['turn'] }],
});

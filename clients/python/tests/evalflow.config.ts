// The app the Python client's tests run `evalflow start` with: the quickstart's feedback types
// (so examples/host.py runs against it unchanged), an evaluator of messages, one of artifact
// versions (for re-evaluations) and one of whole threads (judged once a thread has been quiet
// for 30 minutes, or at once when its host ends it), and a review queue of runs.
import {
  answerLengthEvaluator,
  artifactSchemaEvaluator,
  defineConfig,
  defineEvaluator,
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

const resolution = defineEvaluator({
  name: 'resolution',
  version: '1',
  feedbackType: defineFeedbackType({
    name: 'resolution',
    targets: ['thread'],
    schema: z.object({ messages: z.int() }),
  }),
  targets: ['thread'],
  source: 'JUDGE',
  async evaluate(subject) {
    let messages = 0;
    if (subject.kind === 'thread') {
      for await (const page of subject.pages()) messages += page.length;
    }
    return { messages };
  },
});

export default defineConfig({
  feedbackTypes: [helpfulness, reviewVerdict],
  evaluators: [
    answerLengthEvaluator(),
    artifactSchemaEvaluator({ schemas: { report: z.object({ title: z.string() }) } }),
    resolution,
  ],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
  rules: [
    { evaluator: 'answer_length@1' },
    { evaluator: 'artifact_schema@1' },
    { evaluator: 'resolution@1', idleFor: '30m' },
  ],
  reviewQueues: [{ queueId: 'triage', feedbackType: reviewVerdict, targetKinds: ['turn'] }],
});

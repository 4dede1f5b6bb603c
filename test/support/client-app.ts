import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import {
  answerLengthEvaluator,
  artifactSchemaEvaluator,
  defineEvaluator,
} from '../../src/evaluators/index.js';

// The app the HTTP client's tests run the API with: a user rating, a reviewer's verdict (a HUMAN
// score config), and three evaluators, one on messages, one on report artifacts and one on whole
// threads (which judges a thread once it has been quiet for 30 minutes, or at once when ended).

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
    resolution,
  ],
  scoreConfigs: { review_verdict: { source: 'HUMAN' } },
  rules: [
    { evaluator: 'answer_length@1' },
    { evaluator: 'artifact_schema@1' },
    { evaluator: 'resolution@1', idleFor: '30m' },
  ],
});

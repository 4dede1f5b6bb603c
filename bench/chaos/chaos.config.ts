// The app the chaos scenarios run: a user rating on messages, a reviewer verdict on runs, and
// three deterministic evaluators, so every route has something real to act on. It imports the
// sources by path: the bench runs under plain tsx, where the package's own name resolves to no
// build.
import { z } from 'zod';
import {
  answerLengthEvaluator,
  defineConfig,
  defineEvaluator,
  defineFeedbackType,
  jsonValidityEvaluator,
} from '../../src/index.js';

export const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean() }),
});

const politeness = defineEvaluator({
  name: 'politeness',
  version: '1',
  feedbackType: defineFeedbackType({
    name: 'politeness',
    targets: ['message'],
    schema: z.object({ polite: z.boolean() }),
  }),
  targets: ['message'],
  source: 'JUDGE',
  evaluate: (subject) => ({
    polite: subject.kind === 'message' && /thank|please/i.test(subject.message.content),
  }),
});

export default defineConfig({
  feedbackTypes: [helpfulness],
  evaluators: [
    politeness,
    answerLengthEvaluator(),
    answerLengthEvaluator({ version: '2', maxCharacters: 80 }),
    // No rule: it judges only what a re-evaluation asks of it (artifact versions).
    jsonValidityEvaluator(),
  ],
  rules: [
    { evaluator: 'politeness@1' },
    { evaluator: 'answer_length@1', targets: ['message'] },
    { evaluator: 'answer_length@2', targets: ['message'] },
  ],
});

import { z } from 'zod';
import { type AppDefinition, defineConfig } from '../../config/index.js';
import { defineFeedbackType } from '../../core/index.js';
import {
  answerLengthEvaluator,
  artifactSchemaEvaluator,
  turnOutcomeEvaluator,
} from '../../evaluators/index.js';

// The demo's app: users rate answers, reviewers judge runs, and heuristic evaluators judge turns,
// answers and invoices. `artifact_schema@2` is deployed beside `@1` but in no rule: the demo
// switches to it at runtime, then re-evaluates every invoice version with it.

export const DEMO_WORKSPACE = 'demo';

export const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean(), stars: z.int().min(1).max(5) }),
});

export const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['turn'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']), note: z.string().default('') }),
});

/** @1 wants a total; @2 wants a positive total and a currency code. */
const invoiceV1 = z.object({ total: z.number() });
const invoiceV2 = z.object({ total: z.number().positive(), currency: z.string().length(3) });

export function demoApp(): AppDefinition {
  return defineConfig({
    feedbackTypes: [helpfulness, reviewVerdict],
    evaluators: [
      turnOutcomeEvaluator(),
      answerLengthEvaluator({ maxCharacters: 80 }),
      artifactSchemaEvaluator({ schemas: { invoice: invoiceV1 } }),
      artifactSchemaEvaluator({ version: '2', schemas: { invoice: invoiceV2 } }),
    ],
    scoreConfigs: { review_verdict: { source: 'HUMAN' } },
    rules: [
      { evaluator: 'turn_outcome@1' },
      // Half the answers: the others are `sampled_out`, with the reason in the ledger.
      { evaluator: 'answer_length@1', sampleRate: 0.5 },
      { evaluator: 'artifact_schema@1' },
    ],
  });
}

import { z } from 'zod';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import { defineEvaluator } from '../../src/evaluators/index.js';

// The app runs from agents' spans are judged by in the OTLP tests and benchmark: one run
// evaluator that says whether the turn was answered, and how many messages and steps it was given.

export const answered = defineFeedbackType({
  name: 'answered',
  targets: ['turn'],
  schema: z.object({ answered: z.boolean(), messages: z.int(), steps: z.int() }),
});

export const answeredApp = defineConfig({
  feedbackTypes: [answered],
  evaluators: [
    defineEvaluator({
      name: 'answered',
      version: '1',
      feedbackType: answered,
      targets: ['turn'],
      source: 'JUDGE',
      async evaluate(subject) {
        const messages = subject.kind === 'turn' ? subject.messages : [];
        return {
          answered: messages.some((m) => m.role === 'assistant'),
          messages: messages.length,
          steps: subject.kind === 'turn' ? subject.steps.length : 0,
        };
      },
    }),
  ],
  rules: [{ evaluator: 'answered@1' }],
});

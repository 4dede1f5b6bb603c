// An app of one LLM judge on a local OpenAI-compatible stand-in (EVALFLOW_TEST_JUDGE_URL), priced
// per million tokens, under two budgets: an ample one in workspace `ample` and a tight one
// (EVALFLOW_TEST_TIGHT_USD) in workspace `tight`, which skips once spent. For the budget test
// of two worker processes on one store.
import { defineConfig, llmJudgeEvaluator } from '../../src/index.js';

const judge = llmJudgeEvaluator({
  baseUrl: process.env.EVALFLOW_TEST_JUDGE_URL ?? 'http://127.0.0.1:9/v1',
  model: 'counted',
  targets: ['turn'],
  estimatedCostUsd: Number(process.env.EVALFLOW_TEST_ESTIMATE_USD ?? 0.0004),
});

export default defineConfig({
  evaluators: [judge],
  pricing: { counted: { inputPerMillionUsd: 2.5, outputPerMillionUsd: 10 } },
  budgets: [
    {
      budgetId: 'ample',
      evaluator: 'llm_judge',
      workspace: 'ample',
      period: 'day',
      limitUsd: 1,
      onExhausted: 'skip',
    },
    {
      budgetId: 'tight',
      evaluator: 'llm_judge@1',
      workspace: 'tight',
      period: 'day',
      limitUsd: Number(process.env.EVALFLOW_TEST_TIGHT_USD ?? 0.0012),
      onExhausted: 'skip',
    },
  ],
});

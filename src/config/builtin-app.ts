import {
  answerLengthEvaluator,
  jsonValidityEvaluator,
  llmJudgeEvaluator,
  refusalEvaluator,
  turnOutcomeEvaluator,
} from '../evaluators/index.js';
import { type AppDefinition, defineConfig } from './define-config.js';
import type { Config } from './environment.js';

/** The app on embedded defaults: the heuristic evaluators, and the LLM judge when configured. */
export function builtinApp(judge: Config['judge']): AppDefinition {
  return defineConfig({
    evaluators: [
      answerLengthEvaluator(),
      refusalEvaluator(),
      jsonValidityEvaluator(),
      turnOutcomeEvaluator(),
      ...(judge ? [llmJudgeEvaluator(judge)] : []),
    ],
  });
}

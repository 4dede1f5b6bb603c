import {
  answerLengthEvaluator,
  jsonValidityEvaluator,
  llmJudgeEvaluator,
  refusalEvaluator,
  turnOutcomeEvaluator,
} from '../evaluators/index.js';
import { type AppDefinition, defineConfig } from './define-config.js';
import type { Config } from './environment.js';

/** The artifact kind whose versions the built-in app checks for valid JSON. */
const JSON_ARTIFACT_KIND = 'json';

/**
 * The app on embedded defaults: the heuristic evaluators, and the LLM judge when configured. Each
 * judges only what it fits: an answer is prose, so JSON validity is checked on artifact versions
 * of kind `json` alone, which claim to be JSON (a rule cannot look inside a message).
 */
export function builtinApp(judge: Config['judge']): AppDefinition {
  return defineConfig({
    evaluators: [
      answerLengthEvaluator(),
      refusalEvaluator(),
      jsonValidityEvaluator(),
      turnOutcomeEvaluator(),
      ...(judge ? [llmJudgeEvaluator(judge)] : []),
    ],
    rules: [
      { evaluator: 'answer_length@1' },
      { evaluator: 'refusal@1' },
      {
        evaluator: 'json_validity@1',
        targets: ['artifact'],
        filter: { artifactKinds: [JSON_ARTIFACT_KIND] },
      },
      { evaluator: 'turn_outcome@1' },
      ...(judge ? [{ evaluator: 'llm_judge@1' }] : []),
    ],
  });
}

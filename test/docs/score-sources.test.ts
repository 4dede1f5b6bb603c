import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as heuristics from '../../src/evaluators/builtin/heuristics.js';
import * as judges from '../../src/evaluators/builtin/llm-judge.js';
import type { Evaluator } from '../../src/evaluators/index.js';

// docs/specification.md lists each built-in evaluator with the source it scores as (the README
// points there): the table must be the evaluators' own, and name every one of them.

const builtins = { ...heuristics, ...judges };

/** Each built-in, made with the least its factory needs. */
const made: Record<string, () => Evaluator> = {
  answerLengthEvaluator: () => heuristics.answerLengthEvaluator(),
  artifactSchemaEvaluator: () => heuristics.artifactSchemaEvaluator({ schemas: {} }),
  jsonValidityEvaluator: () => heuristics.jsonValidityEvaluator(),
  llmJudgeEvaluator: () =>
    judges.llmJudgeEvaluator({ baseUrl: 'http://127.0.0.1:1', model: 'grader' }),
  refusalEvaluator: () => heuristics.refusalEvaluator(),
  stepBudgetEvaluator: () => heuristics.stepBudgetEvaluator(),
  toolFailuresEvaluator: () => heuristics.toolFailuresEvaluator(),
  turnOutcomeEvaluator: () => heuristics.turnOutcomeEvaluator(),
};

it('lists every built-in evaluator with the source it scores as', () => {
  const exported = Object.keys(builtins).filter((name) => name.endsWith('Evaluator'));
  expect(Object.keys(made).sort()).toEqual(exported.sort());
  const rows = Object.entries(made).map(([factory, make]) => {
    const evaluator = make();
    return `| \`${factory}\` | \`${evaluator.feedbackType.name}\` | ${evaluator.targets.join(', ')} | \`${evaluator.source}\` |`;
  });
  const text = readFileSync('docs/specification.md', 'utf8');
  const table =
    /<!-- builtin-sources:.*-->\n(?:.*\n){2}((?:\|.*\n)*)<!-- \/builtin-sources -->/.exec(text);
  expect(table, 'docs/specification.md marks its table of built-ins').not.toBeNull();
  expect(table?.[1]?.trimEnd().split('\n')).toEqual(rows);
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  answerLengthEvaluator,
  artifactSchemaEvaluator,
  type EvaluationContext,
  jsonValidityEvaluator,
  refusalEvaluator,
  type Subject,
  stepBudgetEvaluator,
  toolFailuresEvaluator,
  turnOutcomeEvaluator,
} from '../../src/evaluators/index.js';
import { step, turnWith } from './turns.js';

const context: EvaluationContext = {
  participant: 'evaluator:test@1',
  attempt: 1,
  signal: new AbortController().signal,
  reportUsage: async () => {},
};
const message = (content: string): Subject => ({
  kind: 'message',
  message: { message_id: 'm', thread_id: 't', run_id: 'r', role: 'assistant', content },
});

describe('the built-in heuristic evaluators', () => {
  it('measure answer length against a limit', async () => {
    const evaluator = answerLengthEvaluator({ maxCharacters: 5 });
    expect(await evaluator.evaluate(message('hello'), context)).toEqual({
      characters: 5,
      within_limit: true,
    });
    expect(await evaluator.evaluate(message('hello!'), context)).toMatchObject({
      within_limit: false,
    });
  });

  it('spot refusals', async () => {
    const evaluator = refusalEvaluator();
    expect(await evaluator.evaluate(message("Sorry, I can't help with that."), context)).toEqual({
      refused: true,
    });
    expect(await evaluator.evaluate(message('Here is the answer.'), context)).toEqual({
      refused: false,
    });
  });

  it('check that content is JSON', async () => {
    const evaluator = jsonValidityEvaluator();
    expect(await evaluator.evaluate(message('{"a": 1}'), context)).toEqual({ valid: true });
    expect(await evaluator.evaluate(message('{a: 1}'), context)).toMatchObject({ valid: false });
  });

  it("check an artifact's data against its kind's schema", async () => {
    const evaluator = artifactSchemaEvaluator({
      schemas: { report: z.object({ title: z.string(), pages: z.int() }) },
    });
    const artifact = (data: unknown, kind = 'report'): Subject => ({
      kind: 'artifact',
      artifact: { artifact_id: 'a', kind, version: 1, data },
    });
    expect(await evaluator.evaluate(artifact({ title: 't', pages: 2 }), context)).toEqual({
      valid: true,
      issues: 0,
    });
    expect(await evaluator.evaluate(artifact({ pages: 'x' }), context)).toEqual({
      valid: false,
      issues: 2,
    });
    expect(await evaluator.evaluate(artifact({}, 'memo'), context)).toEqual({
      valid: true,
      issues: 0,
    });
  });

  it('judge a turn by its end and its answers', async () => {
    const subject: Subject = {
      kind: 'turn',
      run: { run_id: 'r', thread_id: 't', status: 'completed', trace_ids: [] },
      steps: [],
      messages: [
        { message_id: '1', thread_id: 't', run_id: 'r', role: 'user', content: 'hi' },
        { message_id: '2', thread_id: 't', run_id: 'r', role: 'assistant', content: 'hello' },
      ],
    };
    expect(await turnOutcomeEvaluator().evaluate(subject, context)).toEqual({
      completed: true,
      assistant_messages: 1,
    });
  });

  it("count the failed tool calls among a turn's steps", async () => {
    const evaluator = toolFailuresEvaluator();
    const steps = [
      step({ kind: 'model', status: 'error', error: 'a model fault is not a tool call' }),
      step({ tool_name: 'a' }),
      step({ tool_name: 'b', status: 'error', error: 'denied' }),
    ];
    expect(await evaluator.evaluate(turnWith(steps), context)).toEqual({
      failed: 1,
      tool_calls: 2,
      none_failed: false,
    });
    expect(await evaluator.evaluate(turnWith([]), context)).toEqual({
      failed: 0,
      tool_calls: 0,
      none_failed: true,
    });
  });

  it('hold a turn to a budget of steps and of tokens, each unlimited unless set', async () => {
    const steps = [
      step({ kind: 'model', input_tokens: 100, output_tokens: 20 }),
      step({ tool_name: 'a' }),
      step({ kind: 'model', input_tokens: 130, output_tokens: null }),
    ];
    const verdict = (options: { maxSteps?: number; maxTokens?: number }) =>
      stepBudgetEvaluator(options).evaluate(turnWith(steps), context);
    expect(await verdict({})).toEqual({ steps: 3, tokens: 250, within_budget: true });
    expect(await verdict({ maxSteps: 3, maxTokens: 250 })).toMatchObject({ within_budget: true });
    expect(await verdict({ maxSteps: 2 })).toMatchObject({ within_budget: false });
    expect(await verdict({ maxTokens: 249 })).toMatchObject({ within_budget: false });
  });

  it('give values their feedback type accepts', async () => {
    const evaluator = answerLengthEvaluator();
    const verdict = await evaluator.evaluate(message('abc'), context);
    expect(evaluator.feedbackType.schema.safeParse(verdict).success).toBe(true);
  });
});

import { z } from 'zod';
import { defineFeedbackType, withArticle } from '../../core/index.js';
import { defineEvaluator } from '../define.js';
import type { Subject } from '../subjects.js';

// Heuristic evaluators for the demo and tests: cheap, deterministic, and each a HARNESS source.

function messageOf(subject: Subject) {
  if (subject.kind !== 'message')
    throw new TypeError(`expected a message, got ${withArticle(subject.kind)}`);
  return subject.message;
}

export const answerLengthFeedback = defineFeedbackType({
  name: 'answer_length',
  targets: ['message'],
  schema: z.object({
    characters: z.int().min(0).describe('Characters in the answer'),
    within_limit: z.boolean().describe('At most the configured limit'),
  }),
});

export function answerLengthEvaluator({ version = '1', maxCharacters = 2000 } = {}) {
  return defineEvaluator({
    name: 'answer_length',
    version,
    feedbackType: answerLengthFeedback,
    targets: ['message'],
    source: 'HARNESS',
    evaluate(subject) {
      const characters = messageOf(subject).content.length;
      return { characters, within_limit: characters <= maxCharacters };
    },
  });
}

export const refusalFeedback = defineFeedbackType({
  name: 'refusal',
  targets: ['message'],
  schema: z.object({ refused: z.boolean().describe('The answer declines the request') }),
});

const refusalPhrases =
  /\b(i can(?:not|'t)|i am unable to|i'm unable to|i won't|i will not|as an ai\b)/i;

export function refusalEvaluator({ version = '1' } = {}) {
  return defineEvaluator({
    name: 'refusal',
    version,
    feedbackType: refusalFeedback,
    targets: ['message'],
    source: 'HARNESS',
    evaluate: (subject) => ({ refused: refusalPhrases.test(messageOf(subject).content) }),
  });
}

export const jsonValidityFeedback = defineFeedbackType({
  name: 'json_validity',
  targets: ['message', 'artifact'],
  schema: z.object({
    valid: z.boolean().describe('The content parses as JSON'),
    error: z.string().nullable().default(null),
  }),
});

export function jsonValidityEvaluator({ version = '1' } = {}) {
  return defineEvaluator({
    name: 'json_validity',
    version,
    feedbackType: jsonValidityFeedback,
    targets: ['message', 'artifact'],
    source: 'HARNESS',
    evaluate(subject) {
      if (subject.kind === 'artifact') {
        const { data } = subject.artifact;
        if (typeof data !== 'string') return { valid: true };
        return parses(data);
      }
      return parses(messageOf(subject).content);
    },
  });
}

function parses(text: string) {
  try {
    JSON.parse(text);
    return { valid: true };
  } catch (error) {
    return { valid: false, error: (error as Error).message };
  }
}

export const artifactSchemaFeedback = defineFeedbackType({
  name: 'artifact_schema',
  targets: ['artifact'],
  schema: z.object({
    valid: z.boolean().describe("The artifact's data matches its kind's schema"),
    issues: z.int().min(0).describe('How many schema issues were found'),
  }),
});

/** Checks each artifact's data against the schema of its kind; a kind without one is valid. */
export function artifactSchemaEvaluator({
  version = '1',
  schemas,
}: {
  version?: string;
  schemas: Record<string, z.ZodType>;
}) {
  return defineEvaluator({
    name: 'artifact_schema',
    version,
    feedbackType: artifactSchemaFeedback,
    targets: ['artifact'],
    source: 'HARNESS',
    evaluate(subject) {
      if (subject.kind !== 'artifact')
        throw new TypeError(`expected an artifact, got ${withArticle(subject.kind)}`);
      const schema = schemas[subject.artifact.kind];
      if (schema === undefined) return { valid: true, issues: 0 };
      const result = schema.safeParse(subject.artifact.data);
      return { valid: result.success, issues: result.success ? 0 : result.error.issues.length };
    },
  });
}

export const turnOutcomeFeedback = defineFeedbackType({
  name: 'turn_outcome',
  targets: ['turn'],
  schema: z.object({
    completed: z.boolean().describe('The run ended as completed'),
    assistant_messages: z.int().min(0).describe('Answers the run posted'),
  }),
});

export function turnOutcomeEvaluator({ version = '1' } = {}) {
  return defineEvaluator({
    name: 'turn_outcome',
    version,
    feedbackType: turnOutcomeFeedback,
    targets: ['turn'],
    source: 'HARNESS',
    evaluate(subject) {
      if (subject.kind !== 'turn')
        throw new TypeError(`expected a turn, got ${withArticle(subject.kind)}`);
      return {
        completed: subject.run.status === 'completed',
        assistant_messages: subject.messages.filter((m) => m.role === 'assistant').length,
      };
    },
  });
}

function turnOf(subject: Subject) {
  if (subject.kind !== 'turn')
    throw new TypeError(`expected a turn, got ${withArticle(subject.kind)}`);
  return subject;
}

export const toolFailuresFeedback = defineFeedbackType({
  name: 'tool_failures',
  targets: ['turn'],
  schema: z.object({
    failed: z.int().min(0).describe('Tool calls that failed'),
    tool_calls: z.int().min(0).describe('Tool calls the run made'),
    none_failed: z.boolean().describe('Every tool call succeeded'),
  }),
});

/** Counts a run's failed tool calls, from its steps (docs/traces.md#steps). */
export function toolFailuresEvaluator({ version = '1' } = {}) {
  return defineEvaluator({
    name: 'tool_failures',
    version,
    feedbackType: toolFailuresFeedback,
    targets: ['turn'],
    source: 'HARNESS',
    evaluate(subject) {
      const tools = turnOf(subject).steps.filter((step) => step.kind === 'tool');
      const failed = tools.filter((step) => step.status === 'error').length;
      return { failed, tool_calls: tools.length, none_failed: failed === 0 };
    },
  });
}

export const stepBudgetFeedback = defineFeedbackType({
  name: 'step_budget',
  targets: ['turn'],
  schema: z.object({
    steps: z.int().min(0).describe('Model and tool calls the run made'),
    tokens: z.int().min(0).describe("Its model calls' input and output tokens"),
    within_budget: z.boolean().describe('At most the configured steps and tokens'),
  }),
});

/** Whether a run kept within a budget of steps and of tokens (either may be left unlimited). */
export function stepBudgetEvaluator({
  version = '1',
  maxSteps = Number.POSITIVE_INFINITY,
  maxTokens = Number.POSITIVE_INFINITY,
}: {
  version?: string;
  maxSteps?: number;
  maxTokens?: number;
} = {}) {
  return defineEvaluator({
    name: 'step_budget',
    version,
    feedbackType: stepBudgetFeedback,
    targets: ['turn'],
    source: 'HARNESS',
    evaluate(subject) {
      const { steps } = turnOf(subject);
      const tokens = steps.reduce(
        (sum, step) => sum + (step.input_tokens ?? 0) + (step.output_tokens ?? 0),
        0,
      );
      return {
        steps: steps.length,
        tokens,
        within_budget: steps.length <= maxSteps && tokens <= maxTokens,
      };
    },
  });
}

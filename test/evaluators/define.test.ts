import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFeedbackType } from '../../src/core/index.js';
import {
  answerLengthEvaluator,
  createEvaluatorRegistry,
  defineEvaluator,
  estimatedCostNanos,
  InvalidEvaluatorError,
  jsonValidityEvaluator,
} from '../../src/evaluators/index.js';

const quality = defineFeedbackType({
  name: 'quality',
  targets: ['message', 'turn'],
  schema: z.object({ good: z.boolean() }),
});

const base = {
  name: 'quality',
  version: '3',
  feedbackType: quality,
  targets: ['message'] as const,
  source: 'JUDGE' as const,
  evaluate: () => ({ good: true }),
};

describe('defineEvaluator', () => {
  it('makes each version its own participant', () => {
    expect(defineEvaluator(base).participant).toBe('evaluator:quality@3');
    expect(defineEvaluator({ ...base, version: '4' }).participant).toBe('evaluator:quality@4');
  });

  it('refuses a target its feedback type is not given on', () => {
    expect(() => defineEvaluator({ ...base, targets: ['artifact'] })).toThrow(
      'quality@3 evaluates artifact, but quality feedback is given on message, turn',
    );
  });

  it('refuses a name or version longer than an id, which no command could carry', () => {
    expect(defineEvaluator({ ...base, name: 'n'.repeat(128) }).name).toHaveLength(128);
    expect(() => defineEvaluator({ ...base, version: '1'.repeat(129) })).toThrow(
      new InvalidEvaluatorError(
        `quality@${'1'.repeat(129)}: its name and version are ids: an id is at most 128 UTF-16 units long, not 129`,
      ),
    );
  });

  it('refuses separators in names, unknown sources and no targets', () => {
    expect(() => defineEvaluator({ ...base, name: 'a@b' })).toThrow(InvalidEvaluatorError);
    expect(() => defineEvaluator({ ...base, source: 'USER' as 'JUDGE' })).toThrow(
      "quality@3's source is JUDGE or HARNESS, not USER",
    );
    expect(() => defineEvaluator({ ...base, targets: [] })).toThrow(InvalidEvaluatorError);
  });

  it('keeps a declared cost estimate, refusing one that is not dollars', () => {
    expect(defineEvaluator({ ...base, estimatedCostUsd: 0.002 }).estimatedCostUsd).toBe(0.002);
    expect(defineEvaluator(base)).not.toHaveProperty('estimatedCostUsd');
    for (const estimatedCostUsd of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => defineEvaluator({ ...base, estimatedCostUsd })).toThrow(
        "quality@3's estimatedCostUsd is a number of dollars, 0 or more",
      );
    }
  });
});

describe('a cost estimate', () => {
  const declared = defineEvaluator({ ...base, estimatedCostUsd: 0.002 });
  it('is the measured mean once there is one, else the declared estimate, else unknown', () => {
    expect(estimatedCostNanos(declared, { evaluations: 4, mean_cost_nanos: 1_234 })).toBe(1_234);
    expect(estimatedCostNanos(declared, { evaluations: 0, mean_cost_nanos: null })).toBe(2_000_000);
    // Measured but with unpriced usage: the declared estimate stands in.
    expect(estimatedCostNanos(declared, { evaluations: 3, mean_cost_nanos: null })).toBe(2_000_000);
    expect(
      estimatedCostNanos(defineEvaluator(base), { evaluations: 0, mean_cost_nanos: null }),
    ).toBe(null);
  });
});

describe('the evaluator registry', () => {
  it('finds each registered version by ref and by id, with the kinds it judges', () => {
    const registry = createEvaluatorRegistry([
      answerLengthEvaluator(),
      answerLengthEvaluator({ version: '2' }),
      jsonValidityEvaluator(),
    ]);
    expect(registry.get({ name: 'answer_length', version: '2' })?.participant).toBe(
      'evaluator:answer_length@2',
    );
    expect(registry.get({ name: 'answer_length', version: '9' })).toBeUndefined();
    expect(registry.targetsOf('json_validity@1')).toEqual(['artifact', 'message']);
    expect(registry.targetsOf('json_validity@2')).toBeUndefined();
  });

  it('refuses two different evaluators under one participant', () => {
    expect(() =>
      createEvaluatorRegistry([answerLengthEvaluator(), answerLengthEvaluator()]),
    ).toThrow('evaluator:answer_length@1 is registered twice');
  });
});

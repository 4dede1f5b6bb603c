import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineConfig, InvalidConfigError } from '../../src/config/index.js';
import { defineFeedbackType } from '../../src/core/index.js';
import {
  answerLengthEvaluator,
  defineEvaluator,
  evaluatorTaskQueues,
  planOf,
} from '../../src/evaluators/index.js';

const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['message'],
  schema: z.object({ helpful: z.boolean() }),
});
const reviewVerdict = defineFeedbackType({
  name: 'review_verdict',
  targets: ['turn', 'message'],
  source: 'HUMAN',
  configName: 'review_verdict',
  schema: z.object({ verdict: z.enum(['pass', 'fail']), score: z.int().min(1).max(5) }),
});
const tone = defineEvaluator({
  name: 'tone',
  version: '1',
  feedbackType: defineFeedbackType({
    name: 'tone',
    targets: ['message', 'turn'],
    schema: z.object({ polite: z.boolean() }),
  }),
  targets: ['message', 'turn'],
  source: 'JUDGE',
  evaluate: () => ({ polite: true }),
});

const human = { review_verdict: { source: 'HUMAN' as const } };

describe('defineConfig', () => {
  it("registers the declared types and every evaluator's own type", () => {
    const app = defineConfig({ feedbackTypes: [helpfulness], evaluators: [tone] });
    expect(
      app.feedbackTypes
        .list()
        .map((t) => t.name)
        .sort(),
    ).toEqual(['helpfulness', 'tone']);
    expect(app.evaluators.targetsOf('tone@1')).toEqual(['message', 'turn']);
  });

  it('makes every evaluator live on everything it judges when there are no rules', () => {
    const app = defineConfig({ evaluators: [tone] });
    expect(planOf(app.rules, 'ws')).toEqual({
      artifact: [],
      message: [{ name: 'tone', version: '1' }],
      thread: [],
      turn: [{ name: 'tone', version: '1' }],
    });
  });

  it('refuses two feedback types that make a score config of the same name', () => {
    const dotted = defineFeedbackType({
      name: 'a.b',
      targets: ['message'],
      schema: z.object({ c: z.boolean() }),
    });
    const nested = defineFeedbackType({
      name: 'a',
      targets: ['message'],
      schema: z.object({ 'b.c': z.number() }),
    });
    expect(() => defineConfig({ feedbackTypes: [dotted, nested] })).toThrow(
      new InvalidConfigError(
        'feedback types a.b and a both make the score config a.b.c; rename a type or a field',
      ),
    );
    expect(() => defineConfig({ feedbackTypes: [dotted] })).not.toThrow();
  });

  it('refuses two versions of one evaluator without rules saying which is live', () => {
    expect(() =>
      defineConfig({
        evaluators: [answerLengthEvaluator(), answerLengthEvaluator({ version: '2' })],
      }),
    ).toThrow(
      "evaluator answer_length has versions 1 and 2: say which judges new runs with rules: [{ evaluator: 'answer_length@2' }]",
    );
  });

  it('judges only what the rules name, with their targets, rates and filters', () => {
    const app = defineConfig({
      evaluators: [answerLengthEvaluator(), answerLengthEvaluator({ version: '2' }), tone],
      rules: [
        { evaluator: 'answer_length@2', sampleRate: 0.5 },
        { evaluator: 'tone@1', targets: ['turn'], filter: { workspaces: ['team-a'] } },
      ],
    });
    expect(planOf(app.rules, 'team-a')).toEqual({
      artifact: [],
      message: [{ name: 'answer_length', version: '2', sampleRate: 0.5 }],
      thread: [],
      turn: [{ name: 'tone', version: '1' }],
    });
    expect(planOf(app.rules, 'team-b').turn).toEqual([]);
    // A version in no rule stays deployed, for pinned runs and re-evaluation.
    expect(app.evaluators.targetsOf('answer_length@1')).toEqual(['message']);
  });

  it('takes a shadow rule, whose version follows the live version of its feedback type', () => {
    const app = defineConfig({
      evaluators: [answerLengthEvaluator(), answerLengthEvaluator({ version: '2' })],
      rules: [
        { evaluator: 'answer_length@1', sampleRate: 0.5 },
        { evaluator: 'answer_length@2', mode: 'shadow' },
      ],
    });
    expect(app.rules.map((rule) => [rule.evaluator, rule.mode])).toEqual([
      ['answer_length@1', undefined],
      ['answer_length@2', 'shadow'],
    ]);
    expect(planOf(app.rules, 'ws', {}, app.evaluators).message).toEqual([
      { name: 'answer_length', version: '1', sampleRate: 0.5 },
      {
        name: 'answer_length',
        version: '2',
        shadowOf: [{ name: 'answer_length', version: '1', sampleRate: 0.5 }],
      },
    ]);
    expect(() =>
      defineConfig({
        evaluators: [tone],
        rules: [{ evaluator: 'tone@1', mode: 'canary' as 'shadow' }],
      }),
    ).toThrow(/mode/);
  });

  it('refuses a rule for an undeclared evaluator, or a kind it does not judge', () => {
    expect(() => defineConfig({ evaluators: [tone], rules: [{ evaluator: 'tone@2' }] })).toThrow(
      'rules[0] names tone@2, which is not among the evaluators (tone@1)',
    );
    expect(() =>
      defineConfig({ evaluators: [tone], rules: [{ evaluator: 'tone@1', targets: ['artifact'] }] }),
    ).toThrow('rules[0]: tone@1 judges message, turn, not artifact');
    expect(() => defineConfig({ evaluators: [tone], rules: [{ evaluator: 'tone' }] })).toThrow(
      'rules[0].evaluator: an evaluator version is written name@version',
    );
    expect(() =>
      defineConfig({ evaluators: [tone], rules: [{ evaluator: 'tone@1', sampleRate: 2 }] }),
    ).toThrow(InvalidConfigError);
  });

  it('needs the score config of every HUMAN type declared, and only those', () => {
    expect(() => defineConfig({ feedbackTypes: [reviewVerdict] })).toThrow(
      "feedback type review_verdict names score config review_verdict: declare it in scoreConfigs: { review_verdict: { source: 'HUMAN' } }",
    );
    expect(() =>
      defineConfig({ feedbackTypes: [helpfulness], scoreConfigs: { stray: { source: 'HUMAN' } } }),
    ).toThrow("scoreConfigs.stray is named by no feedback type's configName");
  });

  it('answers HUMAN config status from the declarations, archived ones retired', async () => {
    const app = defineConfig({ feedbackTypes: [reviewVerdict, helpfulness], scoreConfigs: human });
    expect(await app.scoreConfigs.statusOf(['review_verdict', 'missing'])).toEqual(
      new Map([['review_verdict', { archived: false }]]),
    );
    expect(app.scoreConfigSync.configs.map((c) => c.name)).toEqual([
      'review_verdict.verdict',
      'review_verdict.score',
      'helpfulness.helpful',
    ]);
    const retired = defineConfig({
      feedbackTypes: [reviewVerdict],
      scoreConfigs: { review_verdict: { source: 'HUMAN', archived: true } },
    });
    expect(await retired.scoreConfigs.statusOf(['review_verdict'])).toEqual(
      new Map([['review_verdict', { archived: true }]]),
    );
    expect(retired.scoreConfigSync).toEqual({
      configs: [],
      retired: ['review_verdict.verdict', 'review_verdict.score'],
    });
  });

  it('lists every issue the schema finds, each with its path and what it expected', () => {
    const define = () =>
      defineConfig({
        evaluators: [tone],
        rules: [{ evaluator: 'tone@1', targets: ['run' as never], sampleRate: 2 }],
        reviewQueues: [{ queueId: 'q', feedbackType: 42 as never }],
      });
    expect(define).toThrow(InvalidConfigError);
    expect(define).toThrow(
      [
        'rules[0].targets[0]: Invalid option: expected one of "artifact"|"message"|"thread"|"turn"',
        'rules[0].sampleRate: Too big: expected number to be <=1',
        // A union says what each of its options expected, not "Invalid input" alone.
        'reviewQueues[0].feedbackType: Invalid input: expected string, received number, or not a feedback type from defineFeedbackType',
      ].join('; '),
    );
  });

  it('lists twenty issues, then counts the rest', () => {
    const rules = Array.from({ length: 23 }, () => ({ evaluator: 'tone@1', sampleRate: 2 }));
    let message = '';
    try {
      defineConfig({ evaluators: [tone], rules });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('; ')).toHaveLength(20);
    expect(message).toMatch(/^rules\[0\]\.sampleRate: Too big: expected number to be <=1; /);
    expect(message).toMatch(
      /; rules\[19\]\.sampleRate: Too big: expected number to be <=1 \(and 3 more\)$/,
    );
  });

  it('refuses unknown fields, things that are not types or evaluators, and name clashes', () => {
    expect(() => defineConfig({ evaluator: [] } as never)).toThrow(
      'the definition: Unrecognized key: "evaluator"',
    );
    expect(() => defineConfig({ feedbackTypes: [{ name: 'x' }] as never })).toThrow(
      'feedbackTypes[0]: not a feedback type from defineFeedbackType',
    );
    const clash = defineFeedbackType({
      name: 'helpfulness',
      targets: ['turn'],
      schema: z.object({ n: z.number() }),
    });
    expect(() => defineConfig({ feedbackTypes: [helpfulness, clash] })).toThrow(
      "feedback type name 'helpfulness' is already registered by another type",
    );
  });
});

describe('pricing and budgets', () => {
  const daily = {
    budgetId: 'daily',
    evaluator: 'tone',
    period: 'day',
    limitUsd: 5,
    onExhausted: 'skip',
  } as const;

  it('keeps prices by model and budgets naming a declared evaluator or version', () => {
    const app = defineConfig({
      evaluators: [tone],
      pricing: { grader: { inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6 } },
      budgets: [daily, { ...daily, budgetId: 'v1', evaluator: 'tone@1', workspace: 'acme' }],
    });
    expect(app.pricing).toEqual({ grader: { inputPerMillionUsd: 0.15, outputPerMillionUsd: 0.6 } });
    expect(app.budgets.map((b) => [b.budgetId, b.evaluator, b.workspace])).toEqual([
      ['daily', 'tone', undefined],
      ['v1', 'tone@1', 'acme'],
    ]);
    expect(defineConfig({ evaluators: [tone] })).toMatchObject({ pricing: {}, budgets: [] });
  });

  it.each([
    [{ budgets: [daily, daily] }, /budgets\[1\]: budget daily is declared twice/],
    [
      { budgets: [{ ...daily, evaluator: 'nobody' }] },
      /budgets\[0\]\.evaluator: nobody is no evaluator/,
    ],
    [{ budgets: [{ ...daily, evaluator: 'tone@9' }] }, /budgets\[0\]\.evaluator: tone@9/],
    [{ budgets: [{ ...daily, period: 'year' }] }, /budgets/],
    [{ budgets: [{ ...daily, limitUsd: 0 }] }, /budgets/],
    [{ budgets: [{ ...daily, onExhausted: 'drop' }] }, /budgets/],
    [{ pricing: { grader: { inputPerMillionUsd: -1, outputPerMillionUsd: 1 } } }, /pricing/],
    [{ pricing: { grader: { inputPerMillionUsd: 1 } } }, /pricing/],
  ])('refuses %j with InvalidConfigError', (input, message) => {
    const define = () => defineConfig({ evaluators: [tone], ...(input as object) });
    expect(define).toThrow(InvalidConfigError);
    expect(define).toThrow(message);
  });
});

describe('evaluatorLimits', () => {
  it('keeps the limits of declared evaluators, by name', () => {
    const app = defineConfig({
      evaluators: [tone],
      evaluatorLimits: { tone: { maxConcurrent: 3, perSecond: 0.5 } },
    });
    expect(app.evaluatorLimits).toEqual({ tone: { maxConcurrent: 3, perSecond: 0.5 } });
    expect(defineConfig({ evaluators: [tone] }).evaluatorLimits).toEqual({});
  });

  it.each([
    [{ nobody: { maxConcurrent: 1 } }, /evaluatorLimits\.nobody names no declared evaluator/],
    [{ tone: {} }, /set maxConcurrent, perSecond or both/],
    [{ tone: { maxConcurrent: 0 } }, /evaluatorLimits\.tone\.maxConcurrent/],
    [{ tone: { maxConcurrent: 1.5 } }, /evaluatorLimits\.tone\.maxConcurrent/],
    [{ tone: { perSecond: -1 } }, /evaluatorLimits\.tone\.perSecond/],
    [{ tone: { perSecond: Number.POSITIVE_INFINITY } }, /evaluatorLimits\.tone\.perSecond/],
    [{ tone: { maxConcurrent: 1, burst: 2 } }, /evaluatorLimits\.tone/],
  ])('refuses %j with InvalidConfigError', (evaluatorLimits, message) => {
    const define = () =>
      defineConfig({ evaluators: [tone], evaluatorLimits: evaluatorLimits as never });
    expect(define).toThrow(InvalidConfigError);
    expect(define).toThrow(message);
  });

  it("pins a limited evaluator's own task queue in the plans", () => {
    const app = defineConfig({ evaluators: [tone], evaluatorLimits: { tone: { perSecond: 1 } } });
    const plan = planOf(app.rules, 'w', evaluatorTaskQueues('evalflow', app.evaluatorLimits));
    expect(plan.message).toEqual([
      { name: 'tone', version: '1', taskQueue: 'evalflow.evaluator.tone' },
    ]);
    expect(planOf(app.rules, 'w').message).toEqual([{ name: 'tone', version: '1' }]);
  });
});

import { describe, expect, it } from 'vitest';
import type { EvaluationRule } from '../../src/core/index.js';
import {
  answerLengthEvaluator,
  everyTargetRules,
  jsonValidityEvaluator,
  planOf,
  turnOutcomeEvaluator,
} from '../../src/evaluators/index.js';

const rule = (evaluator: string, extra: Partial<EvaluationRule> = {}): EvaluationRule => ({
  evaluator,
  targets: ['message'],
  sample_rate: 1,
  filter: {},
  enabled: true,
  ...extra,
});

describe('evaluation plans', () => {
  it('puts each live rule on the kinds it names, with its sample rate and artifact kinds', () => {
    const plan = planOf(
      [
        rule('answer_length@1', { sample_rate: 0.25 }),
        rule('json_validity@1', {
          targets: ['artifact', 'message'],
          filter: { artifact_kinds: ['doc'] },
        }),
        rule('turn_outcome@1', { targets: ['turn'] }),
        rule('resolution@1', { targets: ['thread', 'turn'], idle_for: '1h30m' }),
        rule('tone@2', { targets: ['thread'], sample_rate: 0.5 }),
      ],
      'ws',
    );
    expect(plan).toEqual({
      artifact: [{ name: 'json_validity', version: '1', artifactKinds: ['doc'] }],
      message: [
        { name: 'answer_length', version: '1', sampleRate: 0.25 },
        { name: 'json_validity', version: '1', artifactKinds: ['doc'] },
      ],
      // A thread evaluator carries its rule's idle time, 30 minutes when the rule names none.
      thread: [
        { name: 'resolution', version: '1', idleForMs: 90 * 60_000 },
        { name: 'tone', version: '2', sampleRate: 0.5, idleForMs: 30 * 60_000 },
      ],
      turn: [
        { name: 'turn_outcome', version: '1' },
        { name: 'resolution', version: '1' },
      ],
    });
  });

  it('leaves out disabled rules, rules at rate 0 and rules for other workspaces', () => {
    const plan = planOf(
      [
        rule('a@1', { enabled: false }),
        rule('b@1', { sample_rate: 0 }),
        rule('c@1', { filter: { workspaces: ['other'] } }),
        rule('d@1', { filter: { workspaces: ['ws', 'other'] } }),
      ],
      'ws',
    );
    expect(plan.message).toEqual([{ name: 'd', version: '1' }]);
  });

  it('makes every evaluator live on everything it judges when asked to', () => {
    const rules = everyTargetRules([
      answerLengthEvaluator(),
      jsonValidityEvaluator(),
      turnOutcomeEvaluator(),
    ]);
    expect(planOf(rules, 'ws')).toEqual({
      artifact: [{ name: 'json_validity', version: '1' }],
      message: [
        { name: 'answer_length', version: '1' },
        { name: 'json_validity', version: '1' },
      ],
      thread: [],
      turn: [{ name: 'turn_outcome', version: '1' }],
    });
  });
});

describe('plans with shadow versions', () => {
  // politeness@1 and @2 give one feedback type, tone@1 another.
  const types: Record<string, string> = {
    'politeness@1': 'politeness',
    'politeness@2': 'politeness',
    'politeness@3': 'politeness',
    'tone@1': 'tone',
  };
  const catalog = {
    targetsOf: () => ['message', 'turn'] as const,
    feedbackTypeOf: (id: string) => types[id],
  };

  it('lets a shadow version follow, kind by kind, the live versions of its own feedback type', () => {
    const plan = planOf(
      [
        rule('politeness@1', { targets: ['message', 'turn'], sample_rate: 0.5 }),
        rule('politeness@2', { targets: ['message', 'turn'], mode: 'shadow', sample_rate: 0.2 }),
        rule('politeness@3', { targets: ['message'], filter: { workspaces: ['ws'] } }),
        rule('tone@1', { targets: ['message'] }),
      ],
      'ws',
      {},
      catalog,
    );
    expect(plan.message).toEqual([
      { name: 'politeness', version: '1', sampleRate: 0.5 },
      {
        name: 'politeness',
        version: '2',
        sampleRate: 0.2,
        shadowOf: [
          { name: 'politeness', version: '1', sampleRate: 0.5 },
          { name: 'politeness', version: '3' },
        ],
      },
      { name: 'politeness', version: '3' },
      { name: 'tone', version: '1' },
    ]);
    expect(plan.turn).toEqual([
      { name: 'politeness', version: '1', sampleRate: 0.5 },
      {
        name: 'politeness',
        version: '2',
        sampleRate: 0.2,
        shadowOf: [{ name: 'politeness', version: '1', sampleRate: 0.5 }],
      },
    ]);
  });

  it('gives a shadow version with no live version of its type nothing to follow', () => {
    const rules = [
      rule('politeness@1', { enabled: false }),
      rule('politeness@2', { mode: 'shadow' }),
    ];
    expect(planOf(rules, 'ws', {}, catalog).message).toEqual([
      { name: 'politeness', version: '2', shadowOf: [] },
    ]);
    // Without the catalog no type is known, so nothing is followed either.
    expect(
      planOf([rule('politeness@1'), rule('politeness@2', { mode: 'shadow' })], 'ws').message,
    ).toEqual([
      { name: 'politeness', version: '1' },
      { name: 'politeness', version: '2', shadowOf: [] },
    ]);
  });

  it('pins plans without shadow rules exactly as before: no shadowOf on any ref', () => {
    const plan = planOf(
      [rule('politeness@1', { mode: 'live' }), rule('tone@1')],
      'ws',
      {},
      catalog,
    );
    expect(plan.message).toEqual([
      { name: 'politeness', version: '1' },
      { name: 'tone', version: '1' },
    ]);
  });
});

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

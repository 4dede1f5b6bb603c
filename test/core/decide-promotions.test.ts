import { describe, expect, it } from 'vitest';
import { type DecideContext, decide, emptyState } from '../../src/core/index.js';
import {
  evidence,
  feedbackTypes,
  promotion,
  promotionContext,
  targetsOf,
} from './promotion-fixtures.js';

// promote_evaluator's checks, each branch on its own: which versions the app deploys (or none),
// a catalog that does not say feedback types, and the rules the event switches. The thresholds
// and the evidence are tested in evaluation-rules.test.ts, on the same fixtures.

const system = { kind: 'system', name: 'admin' };
const promote = (changes: object = {}, promotedWith: DecideContext = promotionContext) =>
  decide(emptyState(), system, { ...promotion, ...changes }, promotedWith);
/** The event of a promotion recorded with these rules and the evidence above. */
const promoted = (replacing: string | null, rules: object[]) => ({
  type: 'recorded',
  events: [
    {
      type: 'evaluator_promoted',
      evaluator: 'tone@2',
      replacing,
      rules,
      min_kappa: 0.6,
      min_matched: 50,
      evidence: { ...evidence, mapping: {}, replaced: null },
      shortfalls: [],
      forced: false,
    },
  ],
});
const missing = (id: string) => ({
  type: 'not_found',
  entity: 'evaluator',
  id,
  message: `evaluator ${id} does not exist`,
});

describe('a promotion’s versions', () => {
  it('are refused by the promoted version’s id when the app deploys no evaluator versions', () => {
    expect(promote({}, { feedbackTypes })).toEqual(missing('tone@2'));
    expect(promote({ replacing: null, replaced_rule: null }, { feedbackTypes })).toEqual(
      missing('tone@2'),
    );
  });

  it('are refused by the id of the promoted version the app does not deploy', () => {
    expect(promote({ evaluator: 'tone@9' })).toEqual(missing('tone@9'));
  });

  it('are refused by the id of the replaced version the app does not deploy', () => {
    expect(promote({ replacing: 'tone@0' })).toEqual(missing('tone@0'));
  });

  it('replace one another when the catalog does not say their feedback types', () => {
    const withoutTypes: DecideContext = { feedbackTypes, evaluators: { targetsOf } };
    // Neither type is known, so they are not of different types: the promotion goes ahead.
    expect(promote({ replacing: 'mood@1' }, withoutTypes)).toEqual(
      promoted('mood@1', [
        { evaluator: 'tone@2', targets: ['turn'], sample_rate: 1, filter: {}, enabled: true },
        { evaluator: 'mood@1', targets: ['turn'], sample_rate: 1, filter: {}, enabled: false },
      ]),
    );
    // With the types known, the same promotion is refused.
    expect(promote({ replacing: 'mood@1' })).toEqual({
      type: 'validation_failed',
      message:
        'tone@2 gives tone feedback and mood@1 gives mood: a version replaces one of its own feedback type',
      errors: [],
    });
  });
});

describe('the rules a promotion records', () => {
  it('are the promoted version’s alone, enabled, when it replaces none', () => {
    expect(promote({ replacing: null, replaced_rule: null })).toEqual(
      promoted(null, [
        { evaluator: 'tone@2', targets: ['turn'], sample_rate: 1, filter: {}, enabled: true },
      ]),
    );
  });

  it('are the promoted version’s enabled and the replaced one’s disabled, targets sorted once', () => {
    expect(
      promote({
        rule: { targets: ['turn', 'message', 'turn'] },
        replaced_rule: { targets: ['turn', 'message', 'message'], sample_rate: 0.5 },
      }),
    ).toEqual(
      promoted('tone@1', [
        {
          evaluator: 'tone@2',
          targets: ['message', 'turn'],
          sample_rate: 1,
          filter: {},
          enabled: true,
        },
        {
          evaluator: 'tone@1',
          targets: ['message', 'turn'],
          sample_rate: 0.5,
          filter: {},
          enabled: false,
        },
      ]),
    );
  });

  it('are refused when a replaced rule is given without the version it replaces', () => {
    expect(promote({ replacing: null })).toEqual({
      type: 'validation_failed',
      message: 'replaced_rule is the rule of the version replaced: give replacing too',
      errors: [],
    });
  });

  it('are refused when the replaced version is given without its rule', () => {
    expect(promote({ replaced_rule: null })).toEqual({
      type: 'validation_failed',
      message: 'replaced_rule is required: the rule tone@1 keeps, disabled',
      errors: [],
    });
  });
});

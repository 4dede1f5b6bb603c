import { describe, expect, it } from 'vitest';
import {
  AgreementInputError,
  type CategoricalAgreement,
  categoricalAgreement,
  categoricalAgreementOfCodes,
  encodeLabels,
  UNDEFINED_REASONS,
} from '../../src/agreement/index.js';
import { categoricalCases } from './fixtures.js';

const wikipedia = categoricalCases[0];
if (wikipedia === undefined) throw new Error('the fixtures lost their first case');

const label = (result: CategoricalAgreement, name: string) => {
  const found = result.perLabel.find((l) => l.label === name);
  if (found === undefined) throw new Error(`no label ${name}`);
  return found;
};

describe('categorical agreement', () => {
  it("gives Wikipedia's worked example: raw agreement 0.7, chance 0.5, κ 0.4", () => {
    const result = categoricalAgreement(wikipedia.a, wikipedia.b);
    expect(result).toMatchObject({
      targets: 50,
      matched: 50,
      labels: ['no', 'yes'],
      confusion: [
        [15, 10],
        [5, 20],
      ],
      rawAgreement: { value: 0.7 },
      chanceAgreement: { value: 0.5 },
    });
    expect(result.kappa.value).toBeCloseTo(0.4, 15);
  });

  it('gives κ 1 for perfect agreement, 0 when one side is constant, 0 for perfect disagreement', () => {
    expect(categoricalAgreement(['a', 'b', 'c', 'a'], ['a', 'b', 'c', 'a']).kappa.value).toBe(1);
    expect(categoricalAgreement(['x', 'x', 'x', 'x'], ['x', 'y', 'x', 'y']).kappa.value).toBe(0);
    expect(categoricalAgreement(['x', 'x'], ['y', 'y']).kappa.value).toBe(0);
  });

  it('gives κ null, with its reason, where scikit-learn gives NaN: one and the same label everywhere', () => {
    const result = categoricalAgreement(['pass', 'pass', 'pass'], ['pass', 'pass', 'pass']);
    expect(result.rawAgreement.value).toBe(1);
    expect(result.kappa).toEqual({
      value: null,
      code: 'one_label_only',
      reason: UNDEFINED_REASONS.one_label_only,
    });
    expect(result.kappa.value === null && result.kappa.reason).toMatch(/NaN/);
  });

  it('compares only the targets both sides judged, and counts the rest side by side', () => {
    const result = categoricalAgreement(
      ['x', 'y', null, 'x', undefined],
      ['x', null, 'y', 'y', null],
    );
    expect(result).toMatchObject({ targets: 5, matched: 2, onlyA: 1, onlyB: 1 });
    expect(result.labels).toEqual(['x', 'y']);
  });

  it('leaves every share and κ undefined, saying why, when no target has both verdicts', () => {
    const result = categoricalAgreement(['x', null], [null, 'y']);
    const none = {
      value: null,
      code: 'no_matched_targets',
      reason: 'no target has a verdict from both sides',
    };
    expect(result).toMatchObject({
      matched: 0,
      labels: [],
      rawAgreement: none,
      chanceAgreement: none,
      kappa: none,
      kappaInterval: { low: null, high: null, code: 'too_few_matched_targets' },
      macro: { precision: none, recall: none, f1: none },
    });
    expect(categoricalAgreement([], []).matched).toBe(0);
  });

  it('orders labels by code point, as Python sorts them, and booleans as their text', () => {
    const labels = ['b', 'B', '\u{1F600}', '\uFF71', 'a'];
    expect(categoricalAgreement(labels, labels).labels).toEqual([
      'B',
      'a',
      'b',
      '\uFF71',
      '\u{1F600}',
    ]);
    expect(categoricalAgreement([true, false], [true, true]).labels).toEqual(['false', 'true']);
  });

  it('lists the declared labels first, in their order, with rows for labels nobody gave', () => {
    const result = categoricalAgreement(['good', 'bad', 'meh'], ['good', 'good', 'meh'], {
      labels: ['good', 'bad', 'neutral'],
    });
    expect(result.labels).toEqual(['good', 'bad', 'neutral', 'meh']);
    expect(label(result, 'neutral')).toMatchObject({ countA: 0, countB: 0, f1: 0 });
    expect(result.confusion[2]).toEqual([0, 0, 0, 0]);
  });

  it('lists no label that only unmatched verdicts carry', () => {
    expect(categoricalAgreement(['x', 'lonely'], ['x', null]).labels).toEqual(['x']);
  });

  it('renames labels on both sides before comparing', () => {
    const result = categoricalAgreement([true, false, true], ['pass', 'fail', 'fail'], {
      mapping: { pass: 'true', fail: 'false' },
    });
    expect(result.labels).toEqual(['false', 'true']);
    expect(result.rawAgreement.value).toBeCloseTo(2 / 3, 15);
  });

  it('takes the mapping for its own keys only, not for names an object inherits', () => {
    expect(categoricalAgreement(['constructor'], ['toString'], { mapping: {} }).labels).toEqual([
      'constructor',
      'toString',
    ]);
  });

  it('scores precision, recall and F1 with side A as the truth, and 0 where a share has no base', () => {
    // A: a a a b b c; B: a a b b b a.
    const result = categoricalAgreement(
      ['a', 'a', 'a', 'b', 'b', 'c'],
      ['a', 'a', 'b', 'b', 'b', 'a'],
    );
    expect(label(result, 'a')).toMatchObject({
      countA: 3,
      countB: 3,
      precision: 2 / 3,
      recall: 2 / 3,
    });
    expect(label(result, 'b')).toMatchObject({
      countA: 2,
      countB: 3,
      precision: 2 / 3,
      recall: 1,
      f1: 0.8,
    });
    expect(label(result, 'c')).toMatchObject({
      countA: 1,
      countB: 0,
      precision: 0,
      recall: 0,
      f1: 0,
    });
    expect(label(result, 'a').rateA.value).toBe(0.5);
    expect(label(result, 'b').rateB.value).toBe(0.5);
    expect(result.macro.recall.value).toBeCloseTo((2 / 3 + 1 + 0) / 3, 15);
  });

  it('gives the same figures from integer codes as from labels', () => {
    const a = ['x', 'y', 'x', null, 'y', 'x'];
    const b = ['x', 'y', 'y', 'x', 'y', null];
    const codes = encodeLabels(a, b);
    expect(codes.labels).toEqual(['x', 'y']);
    expect(Array.from(codes.a)).toEqual([0, 1, 0, -1, 1, 0]);
    expect(categoricalAgreementOfCodes(codes)).toEqual(categoricalAgreement(a, b));
  });

  it('is plain JSON', () => {
    const result = categoricalAgreement(wikipedia.a, wikipedia.b);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('refuses sides of different lengths, values that are not labels, and repeated declared labels', () => {
    expect(() => categoricalAgreement(['x'], [])).toThrow(AgreementInputError);
    expect(() => categoricalAgreement([Number.NaN], ['x'])).toThrow(AgreementInputError);
    expect(() => categoricalAgreement([{} as unknown as string], ['x'])).toThrow(
      /not \[object Object\]/,
    );
    expect(() => categoricalAgreement(['x'], ['x'], { labels: ['x', 'x'] })).toThrow(
      AgreementInputError,
    );
    const codes = { labels: ['x'], a: Int32Array.from([0]), b: Int32Array.from([1]) };
    expect(() => categoricalAgreementOfCodes(codes)).toThrow(/label code 1/);
  });

  it('names the target whose value is not a label', () => {
    try {
      categoricalAgreement(['x', 'y', Number.POSITIVE_INFINITY], ['x', 'y', 'z']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AgreementInputError);
      expect((error as AgreementInputError).index).toBe(2);
    }
  });
});

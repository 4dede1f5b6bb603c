import { describe, expect, it } from 'vitest';
import { raterAgreement } from '../../src/agreement/index.js';
import { byTarget, fleissWikipedia, krippendorff2011 } from './fixtures.js';

describe('agreement among raters', () => {
  it("gives Wikipedia's worked example of Fleiss' κ: P̄ 0.378, κ 0.210", () => {
    const targets = fleissWikipedia.map((row) =>
      row.flatMap((count, label) => Array<string>(count).fill(String(label + 1))),
    );
    const result = raterAgreement(targets);
    expect(result).toMatchObject({
      targets: 10,
      pairableTargets: 10,
      ratings: 140,
      ratingsPerTarget: 14,
    });
    expect(result.observedAgreement.value).toBeCloseTo(0.378, 3);
    expect(result.fleissKappa.value).toBeCloseTo(0.20993, 5);
  });

  it("gives Krippendorff's 2011 worked example α 0.743, and no Fleiss' κ for unequal ratings", () => {
    const result = raterAgreement(byTarget(krippendorff2011));
    expect(result).toMatchObject({
      targets: 12,
      pairableTargets: 11,
      ratings: 40,
      ratingsPerTarget: null,
    });
    expect(result.krippendorffAlpha.value).toBeCloseTo(0.743, 3);
    expect(result.fleissKappa).toMatchObject({ value: null, code: 'unequal_ratings' });
  });

  it('skips missing ratings, and leaves out targets with fewer than two', () => {
    const result = raterAgreement([
      ['a', null, 'a'],
      ['b', 'b'],
      [null, null],
    ]);
    expect(result).toMatchObject({
      targets: 3,
      pairableTargets: 2,
      ratings: 4,
      ratingsPerTarget: 2,
    });
  });

  it('gives 1 for perfect agreement on two labels or more', () => {
    const result = raterAgreement([
      ['a', 'a', 'a'],
      ['b', 'b', 'b'],
    ]);
    expect(result.fleissKappa.value).toBe(1);
    expect(result.krippendorffAlpha.value).toBe(1);
  });

  it('leaves κ and α undefined when every rating is one label, though agreement is 1', () => {
    const result = raterAgreement([
      [true, true],
      [true, true, true],
    ]);
    expect(result.observedAgreement.value).toBe(1);
    expect(result.krippendorffAlpha).toMatchObject({ value: null, code: 'one_value_only' });
    expect(result.fleissKappa).toMatchObject({ value: null, code: 'one_value_only' });
  });

  it('says so when no target has two ratings', () => {
    const result = raterAgreement([['a'], [], ['b']]);
    expect(result.krippendorffAlpha).toMatchObject({ value: null, code: 'no_pairable_targets' });
    expect(raterAgreement([]).fleissKappa).toMatchObject({ code: 'no_pairable_targets' });
  });

  it('renames labels before counting', () => {
    const result = raterAgreement(
      [
        ['pass', true],
        ['fail', false],
      ],
      { mapping: { pass: 'true', fail: 'false' } },
    );
    expect(result.labels).toEqual(['false', 'true']);
    expect(result.krippendorffAlpha.value).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { AgreementInputError, averageRanks, numericAgreement } from '../../src/agreement/index.js';
import { numericCases } from './fixtures.js';

describe('numeric agreement', () => {
  it('gives Pearson, Spearman, MAE and RMSE of B against A', () => {
    const result = numericAgreement([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]);
    expect(result).toMatchObject({
      targets: 5,
      matched: 5,
      meanA: { value: 3 },
      mae: { value: 0.8 },
    });
    expect(result.pearson.value).toBeCloseTo(0.8, 14);
    expect(result.spearman.value).toBeCloseTo(0.8, 14);
    expect(result.rmse.value).toBeCloseTo(Math.sqrt(0.8), 15);
  });

  it('gives Spearman 1 for a monotone relation that is not linear', () => {
    const result = numericAgreement([1, 2, 3, 4, 5, 6], [1, 8, 27, 64, 125, 216]);
    expect(result.spearman.value).toBeCloseTo(1, 15);
    expect(result.pearson.value).toBeLessThan(0.96);
  });

  it('keeps the digits of r for large values close together', () => {
    const nearBillion = numericCases.find((c) => c.name.includes('near a billion'));
    if (nearBillion === undefined) throw new Error('the fixtures lost the case near a billion');
    // The exact r of these doubles, in rational arithmetic (Python's fractions), is
    // 0.99488737013295733337…, nearest double below; scipy 1.17's pearsonr gives 0.9948873701328433.
    const exact = 0.9948873701329574;
    const r = numericAgreement(nearBillion.a, nearBillion.b).pearson.value as number;
    expect(Math.abs(r - exact)).toBeLessThan(1e-15);
  });

  it('ranks ties at their average, as scipy does, and counts -0 and 0 as a tie', () => {
    expect(Array.from(averageRanks(Float64Array.from([10, 20, 10, 30, 20, 20])))).toEqual([
      1.5, 4, 1.5, 6, 4, 4,
    ]);
    expect(Array.from(averageRanks(Float64Array.from([0, -0, -1, 1e300, -1e-300])))).toEqual([
      3.5, 3.5, 1, 5, 2,
    ]);
    expect(Array.from(averageRanks(new Float64Array(0)))).toEqual([]);
  });

  it('compares only the targets both sides judged', () => {
    const result = numericAgreement([1, null, 3, 4, undefined], [2, 5, null, 4, null]);
    expect(result).toMatchObject({
      targets: 5,
      matched: 2,
      onlyA: 1,
      onlyB: 1,
      mae: { value: 0.5 },
    });
  });

  it('leaves the correlations undefined for a constant side, and still gives the errors', () => {
    const result = numericAgreement([3, 3, 3], [1, 2, 3]);
    expect(result.pearson).toMatchObject({ value: null, code: 'constant_side' });
    expect(result.spearman).toMatchObject({ value: null, code: 'constant_side' });
    expect(result.mae.value).toBe(1);
  });

  it('leaves the correlations undefined for one pair, and everything for none', () => {
    expect(numericAgreement([1], [2]).pearson).toEqual({
      value: null,
      code: 'too_few_pairs',
      reason: 'fewer than 2 matched pairs (1)',
    });
    const none = numericAgreement([1, null], [null, 2]);
    for (const figure of [
      none.meanA,
      none.meanB,
      none.pearson,
      none.spearman,
      none.mae,
      none.rmse,
    ]) {
      expect(figure).toMatchObject({ value: null, code: 'no_matched_targets' });
    }
  });

  it('takes typed arrays', () => {
    const result = numericAgreement(Float64Array.from([1, 2, 3]), Float64Array.from([1, 2, 4]));
    expect(result.spearman.value).toBeCloseTo(1, 15);
  });

  it('is plain JSON', () => {
    const result = numericAgreement([1, 2, 3], [3, 3, 3]);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('refuses numbers that are not finite, naming the target, and sides of different lengths', () => {
    expect(() => numericAgreement([1, 2], [1])).toThrow(AgreementInputError);
    try {
      numericAgreement([1, Number.NaN], [1, 2]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AgreementInputError);
      expect((error as AgreementInputError).index).toBe(1);
    }
    expect(() => numericAgreement([1], [Number.POSITIVE_INFINITY])).toThrow(/finite/);
  });
});

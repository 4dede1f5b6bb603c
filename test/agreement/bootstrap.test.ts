import { describe, expect, it } from 'vitest';
import { quantileOfSorted } from '../../src/agreement/bootstrap.js';
import {
  AgreementInputError,
  categoricalAgreement,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type DefinedInterval,
  type Interval,
  kappaInterval,
  MIN_MATCHED_FOR_INTERVAL,
} from '../../src/agreement/index.js';
import { kappaOfCells } from '../../src/agreement/kappa.js';
import { uniforms } from './fixtures.js';

/** A 2 × 2 confusion matrix, row-major (rows side A). */
const cells = (both: number, onlyA: number, onlyB: number, neither: number) =>
  Float64Array.from([both, onlyA, onlyB, neither]);

function definedInterval(interval: Interval): DefinedInterval {
  if (interval.low === null) throw new Error(`no interval: ${interval.reason}`);
  return interval;
}

const width = (interval: Interval) => {
  const { low, high } = definedInterval(interval);
  return high - low;
};

/** The percentile interval of resampling the targets one by one, the slow way it stands for. */
function intervalOfTargets(matrix: Float64Array, resamples: number, seed: number) {
  const targets: number[] = [];
  matrix.forEach((count, cell) => {
    for (let i = 0; i < count; i += 1) targets.push(cell);
  });
  const next = uniforms(seed);
  const drawn = new Float64Array(matrix.length);
  const scratch = [new Float64Array(2), new Float64Array(2)] as const;
  const kappas: number[] = [];
  for (let r = 0; r < resamples; r += 1) {
    drawn.fill(0);
    for (let i = 0; i < targets.length; i += 1) {
      const cell = targets[Math.floor(next() * targets.length)] as number;
      drawn[cell] = (drawn[cell] as number) + 1;
    }
    const kappa = kappaOfCells(drawn, 2, ...scratch);
    if (!Number.isNaN(kappa)) kappas.push(kappa);
  }
  const sorted = Float64Array.from(kappas).sort();
  return { low: quantileOfSorted(sorted, 0.025), high: quantileOfSorted(sorted, 0.975) };
}

describe("the bootstrap interval of Cohen's κ", () => {
  const matrix = cells(40, 10, 12, 38);

  it('gives the same interval for the same seed, and another for another seed', () => {
    expect(kappaInterval(matrix, 2, { seed: 3 })).toEqual(kappaInterval(matrix, 2, { seed: 3 }));
    expect(kappaInterval(matrix, 2)).toEqual(kappaInterval(matrix, 2, { seed: DEFAULT_SEED }));
    expect(kappaInterval(matrix, 2, { seed: 3 })).not.toEqual(
      kappaInterval(matrix, 2, { seed: 4 }),
    );
  });

  it('covers the point estimate, and says how it was drawn', () => {
    const result = categoricalAgreement(
      [...Array(52).fill('pass'), ...Array(48).fill('fail')],
      [...Array(40).fill('pass'), ...Array(24).fill('fail'), ...Array(36).fill('pass')],
    );
    const interval = definedInterval(result.kappaInterval);
    const kappa = result.kappa.value as number;
    expect(interval.low).toBeLessThan(kappa);
    expect(interval.high).toBeGreaterThan(kappa);
    expect(interval).toMatchObject({
      level: 0.95,
      method: 'percentile bootstrap over targets',
      resamples: DEFAULT_RESAMPLES,
      undefinedResamples: 0,
      seed: DEFAULT_SEED,
    });
  });

  it('narrows as the matched targets grow, about as 1/√n', () => {
    const [small, medium, large] = [1, 10, 100].map((k) =>
      width(kappaInterval(cells(40 * k, 10 * k, 12 * k, 38 * k), 2)),
    ) as [number, number, number];
    expect(medium).toBeLessThan(small);
    expect(large).toBeLessThan(medium);
    expect(small / large).toBeGreaterThan(10 * 0.85);
    expect(small / large).toBeLessThan(10 * 1.15);
  });

  it('is narrower at a lower level', () => {
    expect(width(kappaInterval(matrix, 2, { level: 0.8 }))).toBeLessThan(
      width(kappaInterval(matrix, 2)),
    );
  });

  it('equals, within Monte Carlo error, the interval of resampling the targets one by one', () => {
    const small = cells(90, 25, 30, 155);
    const byCells = definedInterval(kappaInterval(small, 2, { resamples: 8000 }));
    const byTargets = intervalOfTargets(small, 8000, 99);
    // Each endpoint's Monte Carlo standard error is about 0.002 here.
    expect(Math.abs(byCells.low - byTargets.low)).toBeLessThan(0.012);
    expect(Math.abs(byCells.high - byTargets.high)).toBeLessThan(0.012);
  });

  it(`says "too few matched targets" below ${MIN_MATCHED_FOR_INTERVAL}, and gives one at it`, () => {
    expect(kappaInterval(cells(4, 1, 1, 3), 2)).toEqual({
      low: null,
      high: null,
      code: 'too_few_matched_targets',
      reason: `too few matched targets (9; an interval needs at least ${MIN_MATCHED_FOR_INTERVAL})`,
    });
    expect(kappaInterval(cells(4, 1, 1, 4), 2).low).not.toBeNull();
  });

  it('gives no interval when κ itself is undefined', () => {
    expect(kappaInterval(cells(50, 0, 0, 0), 2)).toMatchObject({
      low: null,
      code: 'one_label_only',
    });
  });

  it('leaves out, and counts, resamples in which κ is undefined', () => {
    // 9 targets both sides call x, one both call y: a resample misses y with odds 0.9^10 ≈ 0.35.
    const interval = definedInterval(kappaInterval(cells(9, 0, 0, 1), 2, { resamples: 4000 }));
    expect(interval.undefinedResamples / 4000).toBeGreaterThan(0.3);
    expect(interval.undefinedResamples / 4000).toBeLessThan(0.4);
    expect(interval).toMatchObject({ low: 1, high: 1 });
  });

  it('stays well under a second for 100,000 matched targets on five labels', () => {
    const next = uniforms(5);
    const big = new Float64Array(25);
    for (let i = 0; i < 100_000; i += 1) {
      const a = Math.floor(next() * 5);
      const b = next() < 0.7 ? a : Math.floor(next() * 5);
      big[a * 5 + b] = (big[a * 5 + b] as number) + 1;
    }
    const started = performance.now();
    definedInterval(kappaInterval(big, 5));
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('refuses resamples that are not a positive integer, a level outside (0, 1) and a bad seed', () => {
    for (const options of [
      { resamples: 0 },
      { resamples: 2.5 },
      { level: 1 },
      { level: 0 },
      { seed: -1 },
    ]) {
      expect(() => kappaInterval(matrix, 2, options)).toThrow(AgreementInputError);
    }
  });
});

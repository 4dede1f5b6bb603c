import { describe, expect, it } from 'vitest';
import { Random } from '../../src/agreement/random.js';
import { beta, binomial, multinomial } from '../../src/agreement/sampling.js';

/** Binomial(n, p)'s probabilities, computed in logs from k = 0 up. */
function binomialPmf(n: number, p: number): number[] {
  const logs = [n * Math.log1p(-p)];
  for (let k = 1; k <= n; k += 1) {
    logs.push((logs[k - 1] as number) + Math.log((n - k + 1) / k) + Math.log(p / (1 - p)));
  }
  return logs.map(Math.exp);
}

/**
 * Pearson's χ² of observed counts against expected probabilities, the tails merged until each
 * bin expects at least 5, with its degrees of freedom.
 */
function chiSquare(observed: number[], pmf: number[], draws: number) {
  const bins: { observed: number; expected: number }[] = [];
  let open = { observed: 0, expected: 0 };
  pmf.forEach((probability, k) => {
    open.observed += observed[k] ?? 0;
    open.expected += probability * draws;
    if (open.expected >= 5) {
      bins.push(open);
      open = { observed: 0, expected: 0 };
    }
  });
  const last = bins[bins.length - 1];
  if (last !== undefined) {
    last.observed += open.observed;
    last.expected += open.expected;
  }
  const statistic = bins.reduce((s, b) => s + (b.observed - b.expected) ** 2 / b.expected, 0);
  return { statistic, freedom: bins.length - 1 };
}

/** χ²'s upper 1e-5 point by Wilson and Hilferty's approximation. */
const critical = (freedom: number) => {
  const z = 4.265;
  const t = 2 / (9 * freedom);
  return freedom * (1 - t + z * Math.sqrt(t)) ** 3;
};

describe('the samplers', () => {
  // By inversion (mean below 16), by splitting at an order statistic, and with p above 1/2.
  it.each([
    [20, 0.3],
    [40, 0.01],
    [200, 0.3],
    [1000, 0.97],
    [3000, 0.5],
  ])('draws Binomial(%i, %f) with its exact distribution (χ² test)', (n, p) => {
    const random = new Random(n);
    const draws = 40_000;
    const observed = new Array<number>(n + 1).fill(0);
    for (let i = 0; i < draws; i += 1) {
      const k = binomial(random, n, p);
      expect(Number.isInteger(k) && k >= 0 && k <= n).toBe(true);
      observed[k] = (observed[k] as number) + 1;
    }
    const { statistic, freedom } = chiSquare(observed, binomialPmf(n, p), draws);
    expect(statistic).toBeLessThan(critical(freedom));
  });

  it('draws a binomial of 100,000 trials with its mean and variance', () => {
    const random = new Random(5);
    const [n, p] = [100_000, 0.25];
    const draws = 20_000;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < draws; i += 1) {
      const k = binomial(random, n, p);
      sum += k;
      squares += k * k;
    }
    const mean = sum / draws;
    const variance = squares / draws - mean * mean;
    const expectedVariance = n * p * (1 - p);
    expect(Math.abs(mean - n * p)).toBeLessThan(5 * Math.sqrt(expectedVariance / draws));
    expect(Math.abs(variance / expectedVariance - 1)).toBeLessThan(5 * Math.sqrt(2 / draws));
  });

  it('gives 0 and n at p = 0 and p = 1, and 0 of 0 trials', () => {
    const random = new Random(6);
    expect([binomial(random, 50, 0), binomial(random, 50, 1), binomial(random, 0, 0.5)]).toEqual([
      0, 50, 0,
    ]);
  });

  it('draws Beta(a, b) with mean a / (a + b)', () => {
    const random = new Random(7);
    const draws = 20_000;
    let sum = 0;
    for (let i = 0; i < draws; i += 1) sum += beta(random, 3, 7);
    expect(Math.abs(sum / draws - 0.3)).toBeLessThan(5 * Math.sqrt((0.3 * 0.7) / 11 / draws));
  });

  it('draws multinomials that add up to n, leave empty cells empty, and average n·weight', () => {
    const random = new Random(8);
    const weights = Float64Array.from([30, 0, 50, 20]);
    const into = new Float64Array(4);
    const sums = new Float64Array(4);
    const draws = 5000;
    for (let i = 0; i < draws; i += 1) {
      multinomial(random, 1000, weights, 100, into);
      expect(into.reduce((s, x) => s + x, 0)).toBe(1000);
      expect(into[1]).toBe(0);
      into.forEach((count, cell) => {
        sums[cell] = (sums[cell] as number) + count;
      });
    }
    for (const [cell, weight] of weights.entries()) {
      const p = weight / 100;
      const sd = Math.sqrt((1000 * p * (1 - p)) / draws);
      expect(Math.abs((sums[cell] as number) / draws - 1000 * p)).toBeLessThanOrEqual(5 * sd);
    }
  });
});

// McNemar's test on paired correctness, as statsmodels' `mcnemar(table, exact, correction=True)`
// computes it: only the discordant targets count, b (the old version right, the new one wrong)
// and c (the old wrong, the new right). Below EXACT_BELOW discordant targets the exact binomial
// test, p = min(1, 2·P(X ≤ min(b, c))) for X ~ Binomial(b + c, 1/2), summed in integers; from
// there on the chi-square with the continuity correction, (|b − c| − 1)² / (b + c) on 1 degree
// of freedom. statsmodels does not clamp |b − c| − 1 at 0, so b = c gives 1 / (b + c), not 0.

import { AgreementInputError } from './errors.js';

/** From this many discordant targets on, the chi-square replaces the exact binomial test. */
export const EXACT_BELOW = 25;

interface Discordant {
  /** Targets the old version got right and the new one wrong. */
  readonly b: number;
  /** Targets the old version got wrong and the new one right. */
  readonly c: number;
}

/** The exact binomial test: the statistic is min(b, c), as statsmodels gives it. */
export interface ExactMcNemar extends Discordant {
  readonly test: 'exact_binomial';
  readonly statistic: number;
  readonly pValue: number;
}

/** The chi-square test with the continuity correction, on 1 degree of freedom. */
export interface ChiSquareMcNemar extends Discordant {
  readonly test: 'chi_square_corrected';
  readonly statistic: number;
  readonly pValue: number;
  readonly degreesOfFreedom: 1;
}

/** b = c = 0: nothing to test. statsmodels' exact test gives statistic 0 and p = 1, and so does this. */
export interface NoDisagreement extends Discordant {
  readonly test: 'no_disagreement';
  readonly statistic: 0;
  readonly pValue: 1;
  readonly reason: string;
}

/** McNemar's test, naming the test used; plain JSON. */
export type McNemar = ExactMcNemar | ChiSquareMcNemar | NoDisagreement;

export const NO_DISAGREEMENT_REASON =
  'no disagreement: on every target both versions are right or both are wrong, so there is nothing to test (p = 1)';

/** P(X ≤ k) · 2^n for X ~ Binomial(n, 1/2): a sum of binomial coefficients, exact for n < 53. */
function binomialCountUpTo(k: number, n: number): number {
  let coefficient = 1;
  let sum = 1;
  for (let i = 1; i <= k; i += 1) {
    coefficient = (coefficient * (n - i + 1)) / i;
    sum += coefficient;
  }
  return sum;
}

const LOG_GAMMA_HALF = Math.log(Math.PI) / 2;
const EPSILON = 1e-17;
const TINY = 1e-300;

/**
 * P(χ²₁ > x): the upper regularized incomplete gamma Q(1/2, x/2), by its series below x/2 = 1.5
 * and by its continued fraction (modified Lentz) above, both to the last bit of a double.
 */
export function chiSquareOneSurvival(x: number): number {
  if (x <= 0) return 1;
  const a = 0.5;
  const y = x / 2;
  const front = Math.exp(-y + a * Math.log(y) - LOG_GAMMA_HALF);
  if (y < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000; n += 1) {
      term *= y / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
    }
    return 1 - sum * front;
  }
  let b = y + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i < 1000; i += 1) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const step = d * c;
    fraction *= step;
    if (Math.abs(step - 1) < EPSILON) break;
  }
  return front * fraction;
}

/**
 * McNemar's test of b (old right, new wrong) against c (old wrong, new right).
 *
 * @throws AgreementInputError when b or c is not a count.
 */
export function mcnemar(b: number, c: number): McNemar {
  for (const count of [b, c]) {
    if (!Number.isInteger(count) || count < 0) {
      throw new AgreementInputError(`b and c are counts of targets, not ${count}`);
    }
  }
  const n = b + c;
  if (n === 0)
    return {
      test: 'no_disagreement',
      b,
      c,
      statistic: 0,
      pValue: 1,
      reason: NO_DISAGREEMENT_REASON,
    };
  if (n < EXACT_BELOW) {
    const smaller = Math.min(b, c);
    const pValue = Math.min(1, (2 * binomialCountUpTo(smaller, n)) / 2 ** n);
    return { test: 'exact_binomial', b, c, statistic: smaller, pValue };
  }
  const statistic = (Math.abs(b - c) - 1) ** 2 / n;
  return {
    test: 'chi_square_corrected',
    b,
    c,
    statistic,
    pValue: chiSquareOneSurvival(statistic),
    degreesOfFreedom: 1,
  };
}

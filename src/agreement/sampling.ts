// Exact samplers for the bootstrap: a multinomial draw of n targets over the confusion matrix's
// cells, as one binomial per cell. A binomial with a large mean is split at an order statistic of
// its uniforms (Knuth, TAOCP vol. 2, 3.4.1): the a-th smallest of n uniforms is Beta(a, n+1-a),
// and given it, the count below p is a smaller binomial on one side of it. Taking a near the
// mean, n·p, leaves a binomial whose mean is about the square root of the first, so two or three
// splits reach a mean below INVERSION_MEAN, which is drawn by inverting the distribution
// function. Nothing is approximated beyond the rounding of doubles.

import type { Random } from './random.js';

/** Below this mean (of the rarer outcome) a binomial is drawn by inversion. */
const INVERSION_MEAN = 16;

/** Gamma(shape, 1) for shape ≥ 1 (Marsaglia and Tsang, 2000). */
export function gamma(random: Random, shape: number): number {
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = random.normal();
    const t = 1 + c * x;
    if (t <= 0) continue;
    const v = t * t * t;
    const u = random.uniform();
    const x2 = x * x;
    if (u < 1 - 0.0331 * x2 * x2) return d * v;
    if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) return d * v;
  }
}

/** Beta(a, b) for a, b ≥ 1, as a ratio of gammas. */
export function beta(random: Random, a: number, b: number): number {
  const x = gamma(random, a);
  return x / (x + gamma(random, b));
}

/** Binomial(n, p) by inversion, for p ≤ 1/2 and a small mean. */
function binomialByInversion(random: Random, n: number, p: number): number {
  const q = 1 - p;
  const ratio = p / q;
  const first = Math.exp(n * Math.log1p(-p));
  for (;;) {
    let u = random.uniform();
    let k = 0;
    let mass = first;
    // A draw that runs past n has met rounding in the running sum (its odds are about 1e-16),
    // and is drawn again.
    while (u > mass && k < n) {
      u -= mass;
      k += 1;
      mass *= ((n - k + 1) / k) * ratio;
    }
    if (u <= mass) return k;
  }
}

/** Binomial(n, p): the number of n independent trials of probability p that succeed. */
export function binomial(random: Random, n: number, p: number): number {
  let successes = 0;
  let trials = n;
  let probability = p;
  for (;;) {
    if (trials === 0 || probability <= 0) return successes;
    if (probability >= 1) return successes + trials;
    if (trials * Math.min(probability, 1 - probability) < INVERSION_MEAN) {
      return probability <= 0.5
        ? successes + binomialByInversion(random, trials, probability)
        : successes + trials - binomialByInversion(random, trials, 1 - probability);
    }
    // Any a in [1, trials] is exact; the one nearest the mean leaves the least to draw.
    const a = Math.min(trials, Math.max(1, Math.round(probability * (trials + 1))));
    const b = trials + 1 - a;
    const x = beta(random, a, b);
    if (x >= probability) {
      // The a-1 uniforms below x are uniform on [0, x).
      trials = a - 1;
      probability /= x;
    } else {
      // The a uniforms up to x succeed; the b-1 above it are uniform on (x, 1).
      successes += a;
      trials = b - 1;
      probability = (probability - x) / (1 - x);
    }
  }
}

/**
 * A multinomial draw of `n` over cells weighted by `weights` (non-negative integers summing to
 * `total`), written into `into`: the counts of `n` targets drawn with replacement.
 */
export function multinomial(
  random: Random,
  n: number,
  weights: Float64Array,
  total: number,
  into: Float64Array,
): void {
  let left = n;
  let weightLeft = total;
  for (let cell = 0; cell < weights.length; cell += 1) {
    const weight = weights[cell] as number;
    if (weight === 0 || left === 0) {
      into[cell] = 0;
      continue;
    }
    const drawn = weight >= weightLeft ? left : binomial(random, left, weight / weightLeft);
    into[cell] = drawn;
    left -= drawn;
    weightLeft -= weight;
  }
}

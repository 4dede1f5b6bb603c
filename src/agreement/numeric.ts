// Agreement of two sides on a numeric field: Pearson's r, Spearman's ρ (Pearson's r of the
// average ranks, as scipy's `spearmanr`), the mean absolute error and the root mean squared
// error of B against A. Two passes over the matched pairs, in typed arrays: the means, then the
// centred sums, which keep r accurate when the values are large and close together.

import { AgreementInputError } from './errors.js';
import { defined, type Figure, undefinedFigure } from './figures.js';
import { averageRanks } from './ranks.js';

/** A side's verdict on one target: a finite number, or null (or undefined) when it gave none. */
export type MaybeNumber = number | null | undefined;

/** How two sides' numbers on the same targets agree. Plain JSON. */
export interface NumericAgreement {
  /** Targets given (the length of each side). */
  readonly targets: number;
  /** Targets both sides gave a number: every figure below is over these. */
  readonly matched: number;
  readonly onlyA: number;
  readonly onlyB: number;
  readonly meanA: Figure;
  readonly meanB: Figure;
  /** Pearson's r: scipy's `pearsonr(A, B).statistic`; null with fewer than 2 pairs or a constant side. */
  readonly pearson: Figure;
  /** Spearman's ρ with ties at their average rank: scipy's `spearmanr(A, B).statistic`. */
  readonly spearman: Figure;
  /** Mean of |B − A|. */
  readonly mae: Figure;
  /** Square root of the mean of (B − A)². */
  readonly rmse: Figure;
}

/** The matched pairs, in two arrays of equal length. */
interface Pairs {
  readonly x: Float64Array;
  readonly y: Float64Array;
  readonly onlyA: number;
  readonly onlyB: number;
}

function pairsOf(a: ArrayLike<MaybeNumber>, b: ArrayLike<MaybeNumber>): Pairs {
  if (a.length !== b.length) {
    throw new AgreementInputError(
      `the two sides are aligned by target, so they have the same length; they have ${a.length} and ${b.length}`,
    );
  }
  const x = new Float64Array(a.length);
  const y = new Float64Array(a.length);
  let matched = 0;
  let onlyA = 0;
  let onlyB = 0;
  for (let i = 0; i < a.length; i += 1) {
    const u = a[i];
    const v = b[i];
    const hasU = u !== null && u !== undefined;
    const hasV = v !== null && v !== undefined;
    if ((hasU && !Number.isFinite(u)) || (hasV && !Number.isFinite(v))) {
      throw new AgreementInputError(
        `a numeric verdict is a finite number, not ${String(hasU && !Number.isFinite(u) ? u : v)}`,
        i,
      );
    }
    if (hasU && hasV) {
      x[matched] = u as number;
      y[matched] = v as number;
      matched += 1;
    } else if (hasU) onlyA += 1;
    else if (hasV) onlyB += 1;
  }
  return { x: x.subarray(0, matched), y: y.subarray(0, matched), onlyA, onlyB };
}

/** The mean, summed with Neumaier's compensation so that large, close values keep their digits. */
function mean(values: Float64Array): number {
  let sum = 0;
  let compensation = 0;
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i] as number;
    const total = sum + value;
    compensation += Math.abs(sum) >= Math.abs(value) ? sum - total + value : value - total + sum;
    sum = total;
  }
  return (sum + compensation) / values.length;
}

/**
 * Pearson's r of equal-length arrays, clipped to [-1, 1] as scipy clips it; NaN when either is
 * constant. Needs at least 2 values. The centred sums are corrected by the sums of the
 * deviations (the corrected two-pass algorithm), which cancels what rounding left in the means.
 */
export function pearson(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  const meanX = mean(x);
  const meanY = mean(y);
  let sx = 0;
  let sy = 0;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (let i = 0; i < n; i += 1) {
    const dx = (x[i] as number) - meanX;
    const dy = (y[i] as number) - meanY;
    sx += dx;
    sy += dy;
    xx += dx * dx;
    yy += dy * dy;
    xy += dx * dy;
  }
  xx -= (sx * sx) / n;
  yy -= (sy * sy) / n;
  xy -= (sx * sy) / n;
  if (xx <= 0 || yy <= 0) return Number.NaN;
  return Math.max(-1, Math.min(1, xy / (Math.sqrt(xx) * Math.sqrt(yy))));
}

/** A side is constant when all its values are equal. */
function constant(values: Float64Array): boolean {
  const first = values[0];
  for (let i = 1; i < values.length; i += 1) if (values[i] !== first) return false;
  return true;
}

/**
 * How side A's and side B's numbers agree, target by target: `a[i]` and `b[i]` are the two
 * sides' verdicts on target i, null (or undefined) where a side gave none.
 *
 * @throws AgreementInputError when the sides differ in length or a value is not a finite number.
 */
export function numericAgreement(
  a: ArrayLike<MaybeNumber>,
  b: ArrayLike<MaybeNumber>,
): NumericAgreement {
  const { x, y, onlyA, onlyB } = pairsOf(a, b);
  const n = x.length;
  const base = { targets: a.length, matched: n, onlyA, onlyB };
  if (n === 0) {
    const none = undefinedFigure('no_matched_targets');
    return {
      ...base,
      meanA: none,
      meanB: none,
      pearson: none,
      spearman: none,
      mae: none,
      rmse: none,
    };
  }
  let absolute = 0;
  let squared = 0;
  for (let i = 0; i < n; i += 1) {
    const d = (y[i] as number) - (x[i] as number);
    absolute += Math.abs(d);
    squared += d * d;
  }
  // A constant side is found by comparing values, not by a sum of squares that rounding can
  // leave a hair above 0.
  const correlation = (): Figure | null =>
    n < 2
      ? undefinedFigure('too_few_pairs', `${n}`)
      : constant(x) || constant(y)
        ? undefinedFigure('constant_side')
        : null;
  const undefinedCorrelation = correlation();
  return {
    ...base,
    meanA: defined(mean(x)),
    meanB: defined(mean(y)),
    pearson: undefinedCorrelation ?? defined(pearson(x, y)),
    spearman: undefinedCorrelation ?? defined(pearson(averageRanks(x), averageRanks(y))),
    mae: defined(absolute / n),
    rmse: defined(Math.sqrt(squared / n)),
  };
}

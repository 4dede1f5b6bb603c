// The percentile bootstrap of Cohen's κ over targets. Resampling n matched targets with
// replacement changes only how many targets fall in each cell of the confusion matrix, and those
// counts are exactly Multinomial(n, cell / n); so each resample is one multinomial draw over the
// cells (a binomial per non-empty cell), and its cost does not grow with n.

import { AgreementInputError } from './errors.js';
import { type UndefinedCode, undefinedFigure } from './figures.js';
import { kappaOfCells } from './kappa.js';
import { Random } from './random.js';
import { multinomial } from './sampling.js';

/** Below this many matched targets no interval is given ("too few matched targets"). */
export const MIN_MATCHED_FOR_INTERVAL = 10;
/** Resamples drawn unless a caller says otherwise. */
export const DEFAULT_RESAMPLES = 2000;
/** The seed used unless a caller gives one: the same data always give the same interval. */
export const DEFAULT_SEED = 20240601;
/** The interval's coverage unless a caller says otherwise. */
export const DEFAULT_LEVEL = 0.95;

/** How the interval is drawn; every field has a default. */
export interface IntervalOptions {
  /** Number of bootstrap resamples; `DEFAULT_RESAMPLES` by default. */
  readonly resamples?: number;
  /** Seed of the generator, an integer in [0, 2^32); `DEFAULT_SEED` by default. */
  readonly seed?: number;
  /** Coverage, in (0, 1); 0.95 by default. */
  readonly level?: number;
}

/** A percentile bootstrap interval, and how it was drawn. */
export interface DefinedInterval {
  readonly low: number;
  readonly high: number;
  readonly level: number;
  readonly method: 'percentile bootstrap over targets';
  readonly resamples: number;
  /**
   * Resamples whose κ (for a difference of two, either κ) is undefined, one label only in the
   * resample; left out of the percentiles.
   */
  readonly undefinedResamples: number;
  readonly seed: number;
}

/** No interval, and why. */
export interface UndefinedInterval {
  readonly low: null;
  readonly high: null;
  readonly code: UndefinedCode;
  readonly reason: string;
}

/** The interval of a figure, or why there is none. */
export type Interval = DefinedInterval | UndefinedInterval;

export const noInterval = (code: UndefinedCode, detail?: string): UndefinedInterval => {
  const { reason } = undefinedFigure(code, detail);
  return { low: null, high: null, code, reason };
};

/** The q-quantile of sorted values, interpolating linearly between order statistics (numpy's default). */
export function quantileOfSorted(sorted: Float64Array, q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const lower = sorted[below] as number;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return lower + (position - below) * (upper - lower);
}

/** No interval, because `n` targets are fewer than `MIN_MATCHED_FOR_INTERVAL`. */
export const tooFewForInterval = (n: number): UndefinedInterval =>
  noInterval(
    'too_few_matched_targets',
    `${n}; an interval needs at least ${MIN_MATCHED_FOR_INTERVAL}`,
  );

/**
 * The percentile interval of the resampled figures the data define (`defined`, in any order; the
 * others of `drawn.resamples` are counted as undefined), or none when no resample defines it.
 */
export function percentileInterval(
  defined: Float64Array,
  drawn: Required<IntervalOptions>,
): Interval {
  const { resamples, level, seed } = drawn;
  if (defined.length === 0) return noInterval('every_resample_undefined');
  const sorted = defined.sort();
  const tail = (1 - level) / 2;
  return {
    low: quantileOfSorted(sorted, tail),
    high: quantileOfSorted(sorted, 1 - tail),
    level,
    method: 'percentile bootstrap over targets',
    resamples,
    undefinedResamples: resamples - defined.length,
    seed,
  };
}

/**
 * The options with their defaults filled in.
 *
 * @throws AgreementInputError when they are out of range.
 */
export function checkedIntervalOptions(options: IntervalOptions): Required<IntervalOptions> {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const level = options.level ?? DEFAULT_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) {
    throw new AgreementInputError(`resamples is a positive integer, not ${resamples}`);
  }
  if (!(level > 0 && level < 1)) {
    throw new AgreementInputError(`level is a number in (0, 1), not ${level}`);
  }
  return { resamples, level, seed: options.seed ?? DEFAULT_SEED };
}

/**
 * The percentile bootstrap interval of κ over the matched targets counted in `cells` (a `size` ×
 * `size` confusion matrix, rows side A). Null below `MIN_MATCHED_FOR_INTERVAL` targets, or when κ
 * itself is undefined.
 *
 * @throws AgreementInputError when the options are out of range.
 */
export function kappaInterval(
  cells: Float64Array,
  size: number,
  options: IntervalOptions = {},
): Interval {
  const { resamples, level, seed } = checkedIntervalOptions(options);
  let n = 0;
  for (const count of cells) n += count;
  if (n < MIN_MATCHED_FOR_INTERVAL) return tooFewForInterval(n);
  const rows = new Float64Array(size);
  const columns = new Float64Array(size);
  if (Number.isNaN(kappaOfCells(cells, size, rows, columns))) {
    return noInterval('one_label_only');
  }
  const random = new Random(seed);
  const drawn = new Float64Array(cells.length);
  const kappas = new Float64Array(resamples);
  let kept = 0;
  for (let r = 0; r < resamples; r += 1) {
    multinomial(random, n, cells, n, drawn);
    const kappa = kappaOfCells(drawn, size, rows, columns);
    if (!Number.isNaN(kappa)) {
      kappas[kept] = kappa;
      kept += 1;
    }
  }
  return percentileInterval(kappas.subarray(0, kept), { resamples, level, seed });
}

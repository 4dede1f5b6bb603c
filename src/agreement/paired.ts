// A backtest's statistics: an old and a new version of a judge on the same held-out targets,
// each against the reviewers' verdicts. Each version's agreement (confusion matrix, κ with its
// interval), the paired difference of κ with a percentile bootstrap over targets (both versions
// on the same resampled targets), McNemar's test on which version was right, and the targets
// whose verdict changed. A version is right on a target when its label is the reviewers'.

import {
  checkedIntervalOptions,
  type Interval,
  type IntervalOptions,
  MIN_MATCHED_FOR_INTERVAL,
  noInterval,
  percentileInterval,
  tooFewForInterval,
} from './bootstrap.js';
import { type CategoricalAgreement, categoricalAgreement } from './categorical.js';
import { AgreementInputError } from './errors.js';
import { defined, type Figure, undefinedFigure } from './figures.js';
import { kappaOfCells } from './kappa.js';
import { compareCodePoints, type LabelMapping, labelText, type MaybeLabel } from './labels.js';
import { type McNemar, mcnemar } from './mcnemar.js';
import { Random } from './random.js';

/** One held-out target: its key, and the three verdicts on it (null where one is missing). */
export interface HeldOutTarget {
  readonly target: string;
  readonly reviewers: MaybeLabel;
  readonly old: MaybeLabel;
  readonly new: MaybeLabel;
}

/** Who gave a verdict on a held-out target. */
export type BacktestSide = 'reviewers' | 'old' | 'new';

const SIDES: readonly BacktestSide[] = ['reviewers', 'old', 'new'];

/** How the labels are compared and the intervals drawn; every field has a default. */
export interface BacktestOptions {
  /** The field's labels, in the order of the matrices' rows and columns; see `CategoricalOptions`. */
  readonly labels?: readonly string[];
  /** Renames labels on all three sides before comparing; see `LabelMapping`. */
  readonly mapping?: LabelMapping;
  /** How every interval is drawn (each κ's, and the difference's). */
  readonly interval?: IntervalOptions;
}

/** A held-out target left out of every figure, because a side gave it no verdict. */
export interface IncompleteTarget {
  readonly target: string;
  readonly missing: readonly BacktestSide[];
}

/** A target the two versions labelled differently (after the mapping). */
export interface ChangedVerdict {
  readonly target: string;
  readonly reviewers: string;
  readonly old: string;
  readonly new: string;
  readonly oldRight: boolean;
  readonly newRight: boolean;
}

/** κ of the new version minus κ of the old, each against the reviewers, with its interval. */
export interface KappaDifference {
  readonly difference: Figure;
  /**
   * The percentile bootstrap over targets: each resample draws the compared targets with
   * replacement, the same targets for both versions. A resample where either κ is undefined is
   * left out of the percentiles and counted in `undefinedResamples`.
   */
  readonly interval: Interval;
}

/** Everything a backtest shows about the two versions; plain JSON. */
export interface BacktestStatistics {
  /** Held-out targets given. */
  readonly targets: number;
  /** Held-out targets with all three verdicts: every figure below is over these. */
  readonly compared: number;
  /** The other held-out targets, in the order given, with the verdicts they lack. */
  readonly incomplete: readonly IncompleteTarget[];
  /** The labels, in the order of both confusion matrices' rows and columns. */
  readonly labels: readonly string[];
  /** The old version against the reviewers (A: reviewers, B: the old version). */
  readonly old: CategoricalAgreement;
  /** The new version against the reviewers (A: reviewers, B: the new version). */
  readonly new: CategoricalAgreement;
  readonly kappaDifference: KappaDifference;
  /** McNemar's test on the targets where exactly one version is right. */
  readonly mcnemar: McNemar;
  /** The compared targets whose label changed between the versions, in the order given. */
  readonly changed: readonly ChangedVerdict[];
}

/** The compared targets as label codes, one array per side, aligned. */
interface Coded {
  readonly labels: readonly string[];
  readonly reviewers: Int32Array;
  readonly old: Int32Array;
  readonly new: Int32Array;
}

/**
 * The resampled target indices of a percentile bootstrap over `n` targets: `resamples` draws of
 * `n` indices with replacement, from the seeded generator. The same buffer is filled each time.
 */
export function* targetResamples(
  n: number,
  resamples: number,
  seed: number,
): Generator<Int32Array, void, undefined> {
  const random = new Random(seed);
  const drawn = new Int32Array(n);
  for (let r = 0; r < resamples; r += 1) {
    for (let i = 0; i < n; i += 1) drawn[i] = Math.floor(random.uniform() * n);
    yield drawn;
  }
}

/** The interval of κ(new) − κ(old) over resamples of the compared targets. */
function differenceInterval(coded: Coded, options: IntervalOptions): Interval {
  const { resamples, level, seed } = checkedIntervalOptions(options);
  const size = coded.labels.length;
  const n = coded.reviewers.length;
  const oldCells = new Float64Array(size * size);
  const newCells = new Float64Array(size * size);
  const rows = new Float64Array(size);
  const columns = new Float64Array(size);
  const differences = new Float64Array(resamples);
  let kept = 0;
  for (const drawn of targetResamples(n, resamples, seed)) {
    oldCells.fill(0);
    newCells.fill(0);
    for (const target of drawn) {
      const row = (coded.reviewers[target] as number) * size;
      const o = row + (coded.old[target] as number);
      const w = row + (coded.new[target] as number);
      oldCells[o] = (oldCells[o] as number) + 1;
      newCells[w] = (newCells[w] as number) + 1;
    }
    const difference =
      kappaOfCells(newCells, size, rows, columns) - kappaOfCells(oldCells, size, rows, columns);
    if (!Number.isNaN(difference)) {
      differences[kept] = difference;
      kept += 1;
    }
  }
  return percentileInterval(differences.subarray(0, kept), { resamples, level, seed });
}

function kappaDifference(
  coded: Coded,
  old: CategoricalAgreement,
  candidate: CategoricalAgreement,
  options: IntervalOptions,
): KappaDifference {
  const versions = [
    ['the old version', old.kappa],
    ['the new version', candidate.kappa],
  ] as const;
  for (const [version, kappa] of versions) {
    if (kappa.value === null) {
      const detail = `κ of ${version} against the reviewers`;
      return {
        difference: undefinedFigure(kappa.code, detail),
        interval: noInterval(kappa.code, detail),
      };
    }
  }
  const difference = defined((candidate.kappa.value as number) - (old.kappa.value as number));
  const n = coded.reviewers.length;
  if (n < MIN_MATCHED_FOR_INTERVAL) return { difference, interval: tooFewForInterval(n) };
  return { difference, interval: differenceInterval(coded, options) };
}

/** The labels of the compared targets: the declared ones, then the others in code-point order. */
function orderedLabels(seen: ReadonlySet<string>, declared: readonly string[]): string[] {
  if (new Set(declared).size !== declared.length) {
    throw new AgreementInputError(`options.labels repeats a label: ${declared.join(', ')}`);
  }
  const named = new Set(declared);
  return [...declared, ...[...seen].filter((label) => !named.has(label)).sort(compareCodePoints)];
}

/**
 * The statistics of a backtest: how an old and a new version of a judge agree with the
 * reviewers on the same held-out targets, and whether the difference is more than chance.
 * Targets lacking any of the three verdicts are left out of every figure and listed.
 *
 * @throws AgreementInputError when a target repeats, a value is not a label, or the options are
 * out of range.
 */
export function backtestStatistics(
  heldOut: readonly HeldOutTarget[],
  options: BacktestOptions = {},
): BacktestStatistics {
  const seenTargets = new Set<string>();
  const incomplete: IncompleteTarget[] = [];
  const compared: { target: string; reviewers: string; old: string; new: string }[] = [];
  const seenLabels = new Set<string>();
  heldOut.forEach((held, index) => {
    if (seenTargets.has(held.target)) {
      throw new AgreementInputError(`target ${held.target} is given twice`, index);
    }
    seenTargets.add(held.target);
    const textOf = (value: MaybeLabel) =>
      value === null || value === undefined ? null : labelText(value, options.mapping, index);
    const reviewers = textOf(held.reviewers);
    const old = textOf(held.old);
    const candidate = textOf(held.new);
    if (reviewers === null || old === null || candidate === null) {
      const given = { reviewers, old, new: candidate };
      const missing = SIDES.filter((side) => given[side] === null);
      incomplete.push({ target: held.target, missing });
      return;
    }
    for (const label of [reviewers, old, candidate]) seenLabels.add(label);
    compared.push({ target: held.target, reviewers, old, new: candidate });
  });
  const labels = orderedLabels(seenLabels, options.labels ?? []);
  const code = new Map(labels.map((label, i) => [label, i]));
  const codesOf = (side: BacktestSide) =>
    Int32Array.from(compared, (held) => code.get(held[side]) as number);
  const coded: Coded = {
    labels,
    reviewers: codesOf('reviewers'),
    old: codesOf('old'),
    new: codesOf('new'),
  };
  const reviewers = compared.map((held) => held.reviewers);
  const agreementOf = (side: 'old' | 'new') =>
    categoricalAgreement(
      reviewers,
      compared.map((held) => held[side]),
      { labels, ...(options.interval === undefined ? {} : { interval: options.interval }) },
    );
  const old = agreementOf('old');
  const candidate = agreementOf('new');
  let b = 0;
  let c = 0;
  const changed: ChangedVerdict[] = [];
  for (const held of compared) {
    const oldRight = held.old === held.reviewers;
    const newRight = held.new === held.reviewers;
    if (oldRight && !newRight) b += 1;
    if (newRight && !oldRight) c += 1;
    if (held.old !== held.new) changed.push({ ...held, oldRight, newRight });
  }
  return {
    targets: heldOut.length,
    compared: compared.length,
    incomplete,
    labels,
    old,
    new: candidate,
    kappaDifference: kappaDifference(coded, old, candidate, options.interval ?? {}),
    mcnemar: mcnemar(b, c),
    changed,
  };
}

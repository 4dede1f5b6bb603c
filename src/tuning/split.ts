// The split of reviewed targets into a training part (examples are chosen from it) and a held-out
// part (the backtest judges it). Stratified by the reviewers' label: each label is held out in
// proportion to its share of the targets, so a rare label is not left out of either part by chance.

import { InvalidTuningOptionError, TooFewTargetsError } from './errors.js';
import { byLabel, keyedInOrder, type ReviewedTarget } from './reviewed-targets.js';
import { DEFAULT_TUNING_SEED, seededRandom, shuffled } from './seeded.js';

export const DEFAULT_HELD_OUT_SHARE = 0.3;
/** Fewer than this in either part and the split is refused: a backtest of a handful says nothing. */
export const DEFAULT_MINIMUM_PER_PART = 5;

export interface SplitOptions {
  /** The share of the targets held out, strictly between 0 and 1 (default 0.3). */
  heldOutShare?: number;
  seed?: number;
  /** The fewest targets either part may hold (default 5, at least 1). */
  minimumPerPart?: number;
}

export interface TuningSplit {
  /** Both parts in the order of their targets' keys. */
  readonly training: readonly ReviewedTarget[];
  readonly heldOut: readonly ReviewedTarget[];
  /** Per reviewers' label, how many went to each part. */
  readonly strata: readonly { label: string; training: number; heldOut: number }[];
}

/**
 * Splits the targets, the same way for the same targets and seed whatever their order.
 * @throws InvalidTuningOptionError for a share not in (0, 1), a minimum below 1, a bad seed.
 * @throws TooFewTargetsError when either part would hold fewer than the minimum.
 */
export function splitTargets(
  targets: readonly ReviewedTarget[],
  options: SplitOptions = {},
): TuningSplit {
  const share = heldOutShareOf(options.heldOutShare);
  const minimum = minimumOf(options.minimumPerPart);
  const random = seededRandom(options.seed ?? DEFAULT_TUNING_SEED);
  const keyed = keyedInOrder(targets);
  const strata = byLabel(keyed, ({ reviewed }) => reviewed.reviewersLabel);
  const quotas = heldOutQuotas(
    strata.map(([, members]) => members.length),
    share,
  );
  const heldOutKeys = new Set<string>();
  strata.forEach(([, members], index) => {
    for (const { key } of shuffled(members, random).slice(0, quotas[index])) heldOutKeys.add(key);
  });
  const heldOut = keyed.filter(({ key }) => heldOutKeys.has(key)).map((k) => k.reviewed);
  const training = keyed.filter(({ key }) => !heldOutKeys.has(key)).map((k) => k.reviewed);
  if (training.length < minimum || heldOut.length < minimum) {
    throw new TooFewTargetsError(keyed.length, minimum, {
      training: training.length,
      heldOut: heldOut.length,
    });
  }
  return {
    training,
    heldOut,
    strata: strata.map(([label, members], index) => ({
      label,
      training: members.length - (quotas[index] ?? 0),
      heldOut: quotas[index] ?? 0,
    })),
  };
}

/**
 * How many of each stratum to hold out: its share rounded down, then one more each for the
 * largest remainders (ties to the first label) until they add up to the share of all the targets,
 * rounded. So each stratum holds out its share within one target, and the whole within half.
 */
function heldOutQuotas(sizes: readonly number[], share: number): number[] {
  const exact = sizes.map((size) => share * size);
  const quotas = exact.map(Math.floor);
  const total = Math.round(share * sizes.reduce((sum, size) => sum + size, 0));
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  let left = total - quotas.reduce((sum, quota) => sum + quota, 0);
  for (const { index } of order) {
    if (left <= 0) break;
    quotas[index] = (quotas[index] ?? 0) + 1;
    left -= 1;
  }
  return quotas;
}

function heldOutShareOf(share: number | undefined): number {
  if (share === undefined) return DEFAULT_HELD_OUT_SHARE;
  if (!Number.isFinite(share) || share <= 0 || share >= 1) {
    throw new InvalidTuningOptionError(
      `the held-out share is a number strictly between 0 and 1, not ${share}`,
      'heldOutShare',
    );
  }
  return share;
}

function minimumOf(minimum: number | undefined): number {
  if (minimum === undefined) return DEFAULT_MINIMUM_PER_PART;
  if (!Number.isInteger(minimum) || minimum < 1) {
    throw new InvalidTuningOptionError(
      `the minimum per part is a whole number of at least 1, not ${minimum}`,
      'minimumPerPart',
    );
  }
  return minimum;
}

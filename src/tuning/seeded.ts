// The seeded order tuning's choices follow: a Fisher–Yates shuffle on agreement's generator, so
// the same seed gives the same split and the same examples on every platform.

import { Random, SEED_LIMIT } from '../agreement/index.js';
import { InvalidTuningOptionError } from './errors.js';

/** The seed when the caller gives none. */
export const DEFAULT_TUNING_SEED = 36;

/** @throws InvalidTuningOptionError when the seed is not an integer in [0, 2^32). */
export function seededRandom(seed: number): Random {
  if (!Number.isInteger(seed) || seed < 0 || seed >= SEED_LIMIT) {
    throw new InvalidTuningOptionError(`a seed is an integer in [0, 2^32), not ${seed}`, 'seed');
  }
  return new Random(seed);
}

/** A shuffled copy of `items`. */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random.uniform() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

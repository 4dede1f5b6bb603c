// A small seeded generator for the bootstrap: xoshiro128** (Blackman and Vigna), its four words of
// state filled from the seed by splitmix32. Same seed, same stream, on every platform: it uses only
// 32-bit integer operations.

import { AgreementInputError } from './errors.js';

/** The largest seed plus one: seeds are 32-bit unsigned integers. */
export const SEED_LIMIT = 2 ** 32;

const TWO_POW_26 = 2 ** 26;
const TWO_POW_53 = 2 ** 53;

const rotateLeft = (x: number, k: number) => (x << k) | (x >>> (32 - k));

/** A seeded stream of uniform and normal deviates. */
export class Random {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private spareNormal: number | null = null;

  /** @throws AgreementInputError when the seed is not an integer in [0, 2^32). */
  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed >= SEED_LIMIT) {
      throw new AgreementInputError(`a seed is an integer in [0, 2^32), not ${seed}`);
    }
    let state = seed | 0;
    const next = () => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return z ^ (z >>> 16);
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
  }

  /** A generator from its four words of state, as the algorithm's published test vectors give it. */
  static ofState(state: readonly [number, number, number, number]): Random {
    const random = new Random(0);
    random.s0 = state[0] | 0;
    random.s1 = state[1] | 0;
    random.s2 = state[2] | 0;
    random.s3 = state[3] | 0;
    return random;
  }

  /** The next 32 random bits, as an unsigned integer. */
  uint32(): number {
    const result = Math.imul(rotateLeft(Math.imul(this.s1, 5), 7), 9);
    const shifted = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= shifted;
    this.s3 = rotateLeft(this.s3, 11);
    return result >>> 0;
  }

  /** A uniform deviate in [0, 1) with 53 random bits. */
  uniform(): number {
    const high = this.uint32() >>> 5;
    const low = this.uint32() >>> 6;
    return (high * TWO_POW_26 + low) / TWO_POW_53;
  }

  /** A standard normal deviate (Box–Muller; the second of each pair is kept for the next call). */
  normal(): number {
    const spare = this.spareNormal;
    if (spare !== null) {
      this.spareNormal = null;
      return spare;
    }
    const radius = Math.sqrt(-2 * Math.log(1 - this.uniform()));
    const angle = 2 * Math.PI * this.uniform();
    this.spareNormal = radius * Math.sin(angle);
    return radius * Math.cos(angle);
  }
}

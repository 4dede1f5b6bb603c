import { describe, expect, it } from 'vitest';
import { AgreementInputError } from '../../src/agreement/index.js';
import { Random } from '../../src/agreement/random.js';

describe('the seeded generator', () => {
  it("is xoshiro128**: from the state (1, 2, 3, 4) it gives the algorithm's published outputs", () => {
    const random = Random.ofState([1, 2, 3, 4]);
    expect([random.uint32(), random.uint32(), random.uint32()]).toEqual([11520, 0, 5927040]);
  });

  it('gives the same stream for the same seed, and another for another seed', () => {
    const stream = (seed: number) => {
      const random = new Random(seed);
      return Array.from({ length: 8 }, () => random.uint32());
    };
    expect(stream(7)).toEqual(stream(7));
    expect(stream(7)).not.toEqual(stream(8));
    expect(stream(0)).not.toEqual(stream(2 ** 32 - 1));
  });

  it('gives uniforms in [0, 1) with mean 1/2 and variance 1/12', () => {
    const random = new Random(1);
    const n = 200_000;
    let sum = 0;
    let squares = 0;
    let low = 1;
    let high = 0;
    for (let i = 0; i < n; i += 1) {
      const u = random.uniform();
      low = Math.min(low, u);
      high = Math.max(high, u);
      sum += u;
      squares += u * u;
    }
    expect(low).toBeGreaterThanOrEqual(0);
    expect(high).toBeLessThan(1);
    const mean = sum / n;
    expect(Math.abs(mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / n));
    expect(Math.abs(squares / n - mean * mean - 1 / 12)).toBeLessThan(0.002);
  });

  it('gives standard normals', () => {
    const random = new Random(2);
    const n = 200_000;
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < n; i += 1) {
      const z = random.normal();
      sum += z;
      squares += z * z;
    }
    expect(Math.abs(sum / n)).toBeLessThan(5 / Math.sqrt(n));
    expect(Math.abs(squares / n - 1)).toBeLessThan(5 * Math.sqrt(2 / n));
  });

  it('takes only integer seeds in [0, 2^32)', () => {
    for (const seed of [-1, 0.5, 2 ** 32, Number.NaN]) {
      expect(() => new Random(seed)).toThrow(AgreementInputError);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { targetKey } from '../../src/core/index.js';
import {
  InvalidReviewedTargetsError,
  InvalidTuningOptionError,
  splitTargets,
  TooFewTargetsError,
  type TuningSplit,
} from '../../src/tuning/index.js';
import { dataset, reviewed, uniforms } from './reviewed.js';

const keys = (split: TuningSplit) => ({
  training: split.training.map((r) => targetKey(r.target)),
  heldOut: split.heldOut.map((r) => targetKey(r.target)),
});

const countBy = <T>(items: readonly T[], keyOf: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
};

describe('the split of reviewed targets', () => {
  it('is the same for the same seed whatever the order the targets come in, and differs by seed', () => {
    const targets = dataset(1, 200);
    const reversed = [...targets].reverse();
    const next = uniforms(9);
    const shuffled = [...targets].sort(() => next() - 0.5);
    const first = keys(splitTargets(targets, { seed: 7 }));
    expect(keys(splitTargets(reversed, { seed: 7 }))).toEqual(first);
    expect(keys(splitTargets(shuffled, { seed: 7 }))).toEqual(first);
    expect(keys(splitTargets(targets, { seed: 8 })).heldOut).not.toEqual(first.heldOut);
  });

  it('puts every target in exactly one part, the held-out part round(share × count) strong', () => {
    for (const [count, share] of [
      [200, 0.3],
      [37, 0.5],
      [101, 0.1],
      [20, 0.75],
    ] as const) {
      const targets = dataset(count, count, ['a', 'b', 'c']);
      const { training, heldOut } = keys(splitTargets(targets, { heldOutShare: share }));
      expect(heldOut).toHaveLength(Math.round(share * count));
      expect(new Set([...training, ...heldOut]).size).toBe(count);
      expect(training.length + heldOut.length).toBe(count);
    }
  });

  it("holds out each label's targets within one target of the held-out share, over many datasets and seeds", () => {
    const off: string[] = [];
    for (let seed = 0; seed < 300; seed += 1) {
      const next = uniforms(seed);
      const labels = ['a', 'b', 'c', 'd', 'e'].slice(0, 1 + Math.floor(next() * 5));
      const count = 12 + Math.floor(next() * 150);
      const share = 0.05 + next() * 0.9;
      // Beside the skewed labels, up to two labels of a single target each.
      const singles = Array.from({ length: Math.floor(next() * 3) }, (_, j) =>
        reviewed(10_000 + j, `single${j}`),
      );
      const targets = [...dataset(seed, count, labels), ...singles];
      let split: TuningSplit;
      try {
        split = splitTargets(targets, { heldOutShare: share, seed, minimumPerPart: 1 });
      } catch (error) {
        if (error instanceof TooFewTargetsError) continue;
        throw error;
      }
      const sizes = countBy(targets, (r) => r.reviewersLabel);
      const held = countBy(split.heldOut, (r) => r.reviewersLabel);
      for (const [label, size] of sizes) {
        const wanted = share * size;
        const got = held.get(label) ?? 0;
        if (Math.abs(got - wanted) >= 1) {
          off.push(`seed ${seed}: label ${label} ${got} held out of ${size}, share ${share}`);
        }
      }
      for (const stratum of split.strata) {
        expect(stratum.heldOut).toBe(held.get(stratum.label) ?? 0);
        expect(stratum.training + stratum.heldOut).toBe(sizes.get(stratum.label));
      }
    }
    expect(off).toEqual([]);
  });

  it('holds out a large label within one target of its share beside two single ones', () => {
    // 18 targets at 0.69: 12 held out; the large label's share is 11.04, so 10 would be off by more
    // than one target (apportioning the 12 by each label's part of the whole gave 10).
    const targets = [
      reviewed(0, 'a'),
      ...Array.from({ length: 16 }, (_, i) => reviewed(1 + i, 'b')),
      reviewed(17, 'c'),
    ];
    const split = splitTargets(targets, { heldOutShare: 0.69, minimumPerPart: 1 });
    expect(split.heldOut).toHaveLength(12);
    expect(split.strata.find((s) => s.label === 'b')?.heldOut).toBe(11);
  });

  it('keeps a rare label of two targets in both parts at a share of 0.3', () => {
    const targets = [...dataset(3, 98, ['common']), reviewed(1000, 'rare'), reviewed(1001, 'rare')];
    const split = splitTargets(targets, { heldOutShare: 0.3 });
    expect(split.strata).toEqual([
      { label: 'common', training: 69, heldOut: 29 },
      { label: 'rare', training: 1, heldOut: 1 },
    ]);
  });

  it('splits targets of one label only', () => {
    const split = splitTargets(dataset(4, 50, ['pass']), { heldOutShare: 0.2 });
    expect(split.strata).toEqual([{ label: 'pass', training: 40, heldOut: 10 }]);
  });

  it('refuses a held-out share that is not a number strictly between 0 and 1', () => {
    const targets = dataset(5, 40);
    for (const share of [0, 1, -0.1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '0.3']) {
      const error = (() => {
        try {
          splitTargets(targets, { heldOutShare: share as number });
        } catch (e) {
          return e;
        }
      })();
      expect(error, String(share)).toBeInstanceOf(InvalidTuningOptionError);
      expect(error).toMatchObject({ option: 'heldOutShare' });
      expect((error as Error).message).toContain('strictly between 0 and 1');
    }
  });

  it('refuses a bad seed and a bad minimum per part with their option named', () => {
    const targets = dataset(6, 40);
    for (const seed of [-1, 1.5, 2 ** 32]) {
      expect(() => splitTargets(targets, { seed })).toThrow(
        expect.objectContaining({ name: 'InvalidTuningOptionError', option: 'seed' }),
      );
    }
    for (const minimumPerPart of [0, 2.5]) {
      expect(() => splitTargets(targets, { minimumPerPart })).toThrow(
        expect.objectContaining({ name: 'InvalidTuningOptionError', option: 'minimumPerPart' }),
      );
    }
  });

  it('refuses too few targets for either part to hold the minimum, with the figures', () => {
    const error = (() => {
      try {
        splitTargets(dataset(7, 12), { heldOutShare: 0.3 });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(TooFewTargetsError);
    expect(error).toMatchObject({
      count: 12,
      minimumPerPart: 5,
      parts: { training: 8, heldOut: 4 },
    });
    expect(() => splitTargets([])).toThrow(TooFewTargetsError);
  });

  it('refuses a target given twice, a target without a label and one without reviewers', () => {
    expect(() => splitTargets([...dataset(8, 20), reviewed(3, 'pass')])).toThrow(
      InvalidReviewedTargetsError,
    );
    expect(() => splitTargets([...dataset(8, 20), reviewed(99, '')])).toThrow(
      InvalidReviewedTargetsError,
    );
    expect(() =>
      splitTargets([...dataset(8, 20), { ...reviewed(99, 'pass'), reviewers: [] }]),
    ).toThrow(InvalidReviewedTargetsError);
  });
});

// The datasets the reference test gives both this module and test/agreement/reference.py: worked
// examples from the literature, the edge cases, and random datasets of a few thousand targets.
// Random ones come from a small generator of the test's own (mulberry32), not the module's.

import type { LabelMapping, MaybeLabel, MaybeNumber } from '../../src/agreement/index.js';
import {
  graceVerdicts,
  latestOfVersion2,
  reviewersMajority,
  reviewersWarmth,
  reviewerVotes,
  stored,
  version1,
  version2Warmth,
} from '../evidence/verdict-data.js';

export interface CategoricalCase {
  readonly name: string;
  readonly a: readonly MaybeLabel[];
  readonly b: readonly MaybeLabel[];
  readonly labels?: readonly string[];
  readonly mapping?: LabelMapping;
}

export interface NumericCase {
  readonly name: string;
  readonly a: readonly MaybeNumber[];
  readonly b: readonly MaybeNumber[];
}

export interface RaterCase {
  readonly name: string;
  readonly targets: readonly (readonly MaybeLabel[])[];
}

/** A seeded stream of uniforms in [0, 1). */
export function uniforms(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const repeat = <T>(value: T, times: number): T[] => Array.from({ length: times }, () => value);

/** Pairs with the given counts: `[labelA, labelB, count]`. */
const fromCounts = (cells: readonly [MaybeLabel, MaybeLabel, number][]) => ({
  a: cells.flatMap(([x, , n]) => repeat(x, n)),
  b: cells.flatMap(([, y, n]) => repeat(y, n)),
});

/** Side B copies side A with probability `agree`, else draws from `labels` with `weights`. */
function correlatedLabels(
  seed: number,
  n: number,
  labels: readonly MaybeLabel[],
  weights: readonly number[],
  agree: number,
  missing: number,
) {
  const next = uniforms(seed);
  const total = weights.reduce((s, w) => s + w, 0);
  const draw = () => {
    let u = next() * total;
    for (let i = 0; i < labels.length; i += 1) {
      u -= weights[i] as number;
      if (u < 0) return labels[i];
    }
    return labels[labels.length - 1];
  };
  const a: MaybeLabel[] = [];
  const b: MaybeLabel[] = [];
  for (let i = 0; i < n; i += 1) {
    const x = draw();
    const y = next() < agree ? x : draw();
    a.push(next() < missing ? null : x);
    b.push(next() < missing ? null : y);
  }
  return { a, b };
}

export const categoricalCases: readonly CategoricalCase[] = [
  {
    name: "Wikipedia's worked example of Cohen's κ (20, 5, 10, 15): κ = 0.4",
    ...fromCounts([
      ['yes', 'yes', 20],
      ['yes', 'no', 5],
      ['no', 'yes', 10],
      ['no', 'no', 15],
    ]),
  },
  { name: 'one label only on both sides', a: repeat('pass', 12), b: repeat('pass', 12) },
  {
    name: 'perfect agreement on three labels',
    ...fromCounts([
      ['low', 'low', 4],
      ['mid', 'mid', 7],
      ['high', 'high', 3],
    ]),
  },
  {
    name: 'perfect disagreement, one label a side',
    ...fromCounts([['x', 'y', 15]]),
  },
  {
    name: 'side A constant, side B varied',
    ...fromCounts([
      ['x', 'x', 6],
      ['x', 'y', 9],
    ]),
  },
  {
    name: 'booleans against pass and fail, through a mapping, with missing verdicts',
    ...fromCounts([
      [true, 'pass', 30],
      [true, 'fail', 8],
      [false, 'pass', 5],
      [false, 'fail', 22],
      [true, null, 4],
      [null, 'fail', 3],
      [null, null, 2],
    ]),
    mapping: { pass: 'true', fail: 'false' },
  },
  {
    name: 'declared labels, in their own order, one never given',
    ...fromCounts([
      ['good', 'good', 12],
      ['good', 'bad', 3],
      ['bad', 'bad', 9],
      ['bad', 'good', 2],
      ['ugly', 'bad', 1],
    ]),
    labels: ['good', 'bad', 'neutral'],
  },
  {
    name: 'no target judged by both sides',
    a: ['x', 'y', null, null],
    b: [null, null, 'x', 'y'],
  },
  {
    name: 'labels ordered by code point, past the basic plane',
    ...fromCounts([
      ['\u{1F600}', '\u{1F600}', 5],
      ['\uFF71', '\uFF71', 4],
      ['\uFF71', '\u{1F600}', 2],
      ['é', 'é', 3],
      ['Z', 'z', 2],
      ['z', 'z', 6],
    ]),
  },
  {
    name: 'numbers as labels',
    ...fromCounts([
      [1, 1, 10],
      [2, 2, 8],
      [3, 2, 4],
      [10, 10, 5],
      [2, 10, 1],
    ]),
  },
  {
    name: 'random: 3,000 targets, 4 labels, 10 % missing on each side',
    ...correlatedLabels(11, 3000, ['a', 'b', 'c', 'd'], [4, 3, 2, 1], 0.6, 0.1),
  },
  {
    name: 'random: 5,000 targets, a rare positive',
    ...correlatedLabels(12, 5000, [true, false], [1, 19], 0.5, 0.05),
  },
  // The comparisons test/evidence reads through the store (verdict-data.ts), target by target.
  {
    name: "stored verdicts: politeness@2's latest generation against the reviewers' majority",
    a: latestOfVersion2,
    b: reviewersMajority,
    labels: ['false', 'true'],
  },
  {
    name: "stored verdicts: politeness@1 against the reviewers' majority",
    a: version1,
    b: reviewersMajority,
    labels: ['false', 'true'],
  },
  {
    name: "stored verdicts: politeness@2 against grace's review_verdict, pass as true",
    a: latestOfVersion2.slice(0, 6),
    b: graceVerdicts,
    labels: ['false', 'true'],
    mapping: { pass: 'true', fail: 'false' },
  },
  {
    name: 'stored verdicts: politeness@1 against politeness@2',
    a: version1,
    b: latestOfVersion2,
    labels: ['false', 'true'],
  },
  {
    name: 'stored verdicts: grace against ada',
    a: stored.map(([, , grace]) => grace),
    b: stored.map(([, , , ada]) => ada),
    labels: ['false', 'true'],
  },
];

function correlatedNumbers(seed: number, n: number, make: (u: () => number) => [number, number]) {
  const next = uniforms(seed);
  const a: MaybeNumber[] = [];
  const b: MaybeNumber[] = [];
  for (let i = 0; i < n; i += 1) {
    const [x, y] = make(next);
    a.push(next() < 0.05 ? null : x);
    b.push(next() < 0.05 ? null : y);
  }
  return { a, b };
}

export const numericCases: readonly NumericCase[] = [
  {
    name: 'random: 3,000 continuous pairs',
    ...correlatedNumbers(21, 3000, (u) => {
      const x = u() * 10;
      return [x, 0.8 * x + 3 * (u() - 0.5)];
    }),
  },
  {
    name: 'random: 2,000 ratings from 1 to 5, full of ties',
    ...correlatedNumbers(22, 2000, (u) => {
      const x = 1 + Math.floor(u() * 5);
      return [x, Math.min(5, Math.max(1, x + Math.floor(u() * 3) - 1))];
    }),
  },
  {
    name: 'random: scores near a billion, close together',
    ...correlatedNumbers(23, 1000, (u) => {
      const x = 1e9 + u();
      return [x, x + 0.1 * u()];
    }),
  },
  { name: 'a constant side', a: [3, 3, 3, 3, 3], b: [1, 2, 3, 4, 5] },
  { name: 'two pairs', a: [1, 2], b: [5, 3] },
  { name: 'one pair', a: [1, null, 4], b: [2, 7, null] },
  { name: 'monotone but not linear', a: [1, 2, 3, 4, 5, 6], b: [1, 8, 27, 64, 125, 216] },
  {
    name: 'zero, minus zero and negatives, tied',
    a: [0, -0, -1, -1, 2, 0.5],
    b: [0, 1, -0, 3, 3, 0],
  },
  { name: 'no target judged by both sides', a: [1, null], b: [null, 2] },
  {
    name: "stored verdicts: politeness@2's warmth against the reviewers' mean",
    a: version2Warmth,
    b: reviewersWarmth,
  },
];

function randomRatings(seed: number, n: number, raters: () => number, labels: readonly string[]) {
  const next = uniforms(seed);
  return Array.from({ length: n }, () => {
    const truth = labels[Math.floor(next() * labels.length)] as string;
    return Array.from({ length: raters() }, () =>
      next() < 0.55 ? truth : (labels[Math.floor(next() * labels.length)] as string),
    );
  });
}

/** Wikipedia's worked example of Fleiss' κ: 10 targets, 14 raters, 5 labels; κ = 0.210. */
export const fleissWikipedia: readonly (readonly number[])[] = [
  [0, 0, 0, 0, 14],
  [0, 2, 6, 4, 2],
  [0, 0, 3, 5, 6],
  [0, 3, 9, 2, 0],
  [2, 2, 8, 1, 1],
  [7, 7, 0, 0, 0],
  [3, 2, 6, 3, 0],
  [2, 5, 3, 2, 2],
  [6, 5, 2, 1, 0],
  [0, 2, 2, 3, 7],
];

/** Krippendorff (2011), "Computing Krippendorff's alpha-reliability": 4 observers × 12 units; α = 0.743. */
export const krippendorff2011: readonly (readonly (number | null)[])[] = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
  [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
];

/** The targets' ratings of an observers × units table. */
export const byTarget = (table: readonly (readonly MaybeLabel[])[]) =>
  (table[0] ?? []).map((_, unit) => table.map((row) => row[unit]));

export const raterCases: readonly RaterCase[] = [
  {
    name: "Wikipedia's worked example of Fleiss' κ",
    targets: fleissWikipedia.map((row) => row.flatMap((n, c) => repeat(String(c + 1), n))),
  },
  {
    name: "Krippendorff's 2011 worked example, with missing ratings",
    targets: byTarget(krippendorff2011),
  },
  {
    name: 'random: 500 targets, 4 raters each, 3 labels',
    targets: randomRatings(31, 500, () => 4, ['a', 'b', 'c']),
  },
  {
    name: 'random: 800 targets, 0 to 5 ratings each',
    targets: (() => {
      const next = uniforms(33);
      return randomRatings(32, 800, () => Math.floor(next() * 6), ['x', 'y', 'z', 'w']);
    })(),
  },
  { name: 'one label only', targets: repeat(['ok', 'ok', 'ok'], 6) },
  {
    name: 'booleans from 3 raters',
    targets: [
      [true, true, false],
      [false, false, false],
      [true, true, true],
      [true, false, null],
      [false, true, false],
      [true, true, false],
    ],
  },
  { name: 'no target with two ratings', targets: [['a'], ['b'], []] },
  { name: "stored verdicts: the reviewers' own votes", targets: reviewerVotes },
];

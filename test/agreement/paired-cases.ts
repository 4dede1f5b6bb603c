// The held-out sets the backtest statistics are checked on against statsmodels and scipy
// (fixtures/paired_reference.py). Each is built from counts of (reviewers, old, new) triples, so
// b and c are what the case's name says, then shuffled with a seeded generator of the test's own.

import type { HeldOutTarget, MaybeLabel } from '../../src/agreement/index.js';
import { uniforms } from './fixtures.js';

export interface PairedCase {
  readonly name: string;
  readonly heldOut: readonly HeldOutTarget[];
  /** Resamples and seed of the bootstrap; few, to keep the checked-in indices small. */
  readonly resamples: number;
  readonly seed: number;
}

type Triple = readonly [MaybeLabel, MaybeLabel, MaybeLabel, number];

/** The targets of the triples' counts, shuffled (Fisher–Yates) with `seed`. */
function heldOutOf(seed: number, triples: readonly Triple[]): HeldOutTarget[] {
  const rows = triples.flatMap(([reviewers, old, candidate, count]) =>
    Array.from({ length: count }, () => ({ reviewers, old, new: candidate })),
  );
  const next = uniforms(seed);
  for (let i = rows.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [rows[i], rows[j]] = [rows[j] as (typeof rows)[number], rows[i] as (typeof rows)[number]];
  }
  return rows.map((row, i) => ({ target: `t${String(i).padStart(4, '0')}`, ...row }));
}

/** A judge that copies the reviewers with probability `right`, else says another label. */
function randomTriples(seed: number, n: number, labels: readonly string[]): Triple[] {
  const next = uniforms(seed);
  const counts = new Map<string, number>();
  const judged = (truth: string, right: number) =>
    next() < right ? truth : (labels[Math.floor(next() * labels.length)] as string);
  for (let i = 0; i < n; i += 1) {
    const truth = labels[Math.floor(next() * labels.length)] as string;
    const key = JSON.stringify([truth, judged(truth, 0.55), judged(truth, 0.75)]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]): Triple => {
    const [reviewers, old, candidate] = JSON.parse(key) as [string, string, string];
    return [reviewers, old, candidate, count];
  });
}

export const pairedCases: readonly PairedCase[] = [
  {
    name: 'exact: b + c < 25 (b = 3, c = 11), two labels',
    heldOut: heldOutOf(1, [
      ['pass', 'pass', 'pass', 20],
      ['fail', 'fail', 'fail', 14],
      ['pass', 'pass', 'fail', 2],
      ['fail', 'fail', 'pass', 1],
      ['pass', 'fail', 'pass', 7],
      ['fail', 'pass', 'fail', 4],
      ['fail', 'pass', 'pass', 6],
    ]),
    resamples: 100,
    seed: 11,
  },
  {
    name: 'chi-square: b + c ≥ 25 (b = 10, c = 25), three labels',
    heldOut: heldOutOf(2, [
      ['good', 'good', 'good', 40],
      ['fair', 'fair', 'fair', 30],
      ['poor', 'poor', 'poor', 25],
      ['good', 'good', 'fair', 6],
      ['poor', 'poor', 'fair', 4],
      ['good', 'fair', 'good', 10],
      ['fair', 'poor', 'fair', 8],
      ['poor', 'good', 'poor', 7],
      ['fair', 'good', 'poor', 5],
    ]),
    resamples: 100,
    seed: 12,
  },
  {
    name: 'chi-square at b = c = 13: statsmodels gives (0 − 1)² / 26, not 0',
    heldOut: heldOutOf(3, [
      ['yes', 'yes', 'yes', 20],
      ['no', 'no', 'no', 18],
      ['yes', 'yes', 'no', 13],
      ['no', 'yes', 'no', 13],
    ]),
    resamples: 100,
    seed: 13,
  },
  {
    name: 'exact at the edge: b + c = 24',
    heldOut: heldOutOf(4, [
      ['yes', 'yes', 'yes', 15],
      ['no', 'no', 'no', 15],
      ['yes', 'yes', 'no', 4],
      ['no', 'yes', 'no', 20],
    ]),
    resamples: 100,
    seed: 14,
  },
  {
    name: 'no disagreement: b = c = 0, yet verdicts changed where both are wrong',
    heldOut: heldOutOf(5, [
      ['good', 'good', 'good', 12],
      ['fair', 'fair', 'fair', 10],
      ['poor', 'poor', 'poor', 9],
      ['good', 'fair', 'poor', 4],
      ['poor', 'good', 'good', 3],
    ]),
    resamples: 100,
    seed: 15,
  },
  {
    name: 'one label only: every verdict is pass, κ undefined for both',
    heldOut: heldOutOf(6, [['pass', 'pass', 'pass', 30]]),
    resamples: 100,
    seed: 16,
  },
  {
    name: "one label only for the old version: reviewers and old all pass, new's κ is 0",
    heldOut: heldOutOf(7, [
      ['pass', 'pass', 'pass', 25],
      ['pass', 'pass', 'fail', 5],
    ]),
    resamples: 100,
    seed: 17,
  },
  {
    name: 'tiny sample: 6 held-out targets, too few for an interval',
    heldOut: heldOutOf(8, [
      ['pass', 'pass', 'pass', 2],
      ['fail', 'pass', 'fail', 2],
      ['fail', 'fail', 'fail', 1],
      ['pass', 'fail', 'pass', 1],
    ]),
    resamples: 100,
    seed: 18,
  },
  {
    name: 'resamples where a κ is undefined: one fail among 12, counted and left out',
    heldOut: heldOutOf(9, [
      ['pass', 'pass', 'pass', 10],
      ['fail', 'pass', 'fail', 1],
      ['pass', 'fail', 'pass', 1],
    ]),
    resamples: 300,
    seed: 19,
  },
  {
    name: 'targets lacking a verdict are left out',
    heldOut: heldOutOf(10, [
      ['pass', 'pass', 'pass', 15],
      ['fail', 'fail', 'fail', 10],
      ['fail', 'pass', 'fail', 6],
      ['pass', 'pass', 'fail', 2],
      [null, 'pass', 'pass', 2],
      ['pass', null, 'fail', 1],
      ['fail', 'fail', null, 1],
    ]),
    resamples: 100,
    seed: 20,
  },
  {
    name: 'random: 200 targets, four labels, the new judge better',
    heldOut: heldOutOf(11, randomTriples(21, 200, ['a', 'b', 'c', 'd'])),
    resamples: 100,
    seed: 21,
  },
];

/** The (b, c) McNemar's test is checked at: every pair up to 30, and a few large ones. */
export const mcnemarCounts: readonly (readonly [number, number])[] = [
  ...Array.from({ length: 31 * 31 }, (_, i) => [Math.floor(i / 31), i % 31] as const),
  [0, 60],
  [0, 200],
  [5, 300],
  [100, 130],
  [1000, 1100],
  [4000, 4000],
  [12, 13],
  [13, 12],
];

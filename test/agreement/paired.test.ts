import { describe, expect, it } from 'vitest';
import {
  AgreementInputError,
  type BacktestStatistics,
  backtestStatistics,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  type DefinedInterval,
  type HeldOutTarget,
  type Interval,
  type MaybeLabel,
  MIN_MATCHED_FOR_INTERVAL,
  mcnemar,
} from '../../src/agreement/index.js';
import { targetResamples } from '../../src/agreement/paired.js';

// What the backtest statistics say where the data leave a figure undefined, and how they read
// their input. That the figures equal statsmodels' and scipy's is paired-reference.test.ts.

/** Held-out targets from `[reviewers, old, new, count]` rows, named t0, t1, … in order. */
function heldOut(...rows: (readonly [MaybeLabel, MaybeLabel, MaybeLabel, number])[]) {
  return rows
    .flatMap(([reviewers, old, candidate, count]) =>
      Array.from({ length: count }, () => ({ reviewers, old, new: candidate })),
    )
    .map((row, i): HeldOutTarget => ({ target: `t${i}`, ...row }));
}

function definedInterval(interval: Interval): DefinedInterval {
  if (interval.low === null) throw new Error(`no interval: ${interval.reason}`);
  return interval;
}

const improved = heldOut(
  ['pass', 'pass', 'pass', 30],
  ['fail', 'fail', 'fail', 20],
  ['pass', 'fail', 'pass', 8],
  ['fail', 'pass', 'fail', 6],
  ['pass', 'pass', 'fail', 2],
);

describe('the statistics of a backtest', () => {
  it('gives each version against the reviewers, the paired κ difference and McNemar, as plain JSON', () => {
    const result = backtestStatistics(improved);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
    expect(result).toMatchObject({ targets: 66, compared: 66, incomplete: [] });
    expect(result.labels).toEqual(['fail', 'pass']);
    expect(result.old.confusion).toEqual([
      [20, 6],
      [8, 32],
    ]);
    expect(result.new.confusion).toEqual([
      [26, 0],
      [2, 38],
    ]);
    const difference = result.kappaDifference.difference.value as number;
    expect(difference).toBeCloseTo(
      (result.new.kappa.value as number) - (result.old.kappa.value as number),
      15,
    );
    const interval = definedInterval(result.kappaDifference.interval);
    expect(interval.low).toBeLessThan(difference);
    expect(interval.high).toBeGreaterThan(difference);
    expect(interval).toMatchObject({
      level: 0.95,
      method: 'percentile bootstrap over targets',
      resamples: DEFAULT_RESAMPLES,
      undefinedResamples: 0,
      seed: DEFAULT_SEED,
    });
    expect(result.mcnemar).toEqual(mcnemar(2, 14));
    expect(result.mcnemar.test).toBe('exact_binomial');
  });

  it('lists the targets whose verdict changed, with which version was right', () => {
    const result = backtestStatistics(improved);
    expect(result.changed).toHaveLength(16);
    expect(result.changed[0]).toEqual({
      target: 't50',
      reviewers: 'pass',
      old: 'fail',
      new: 'pass',
      oldRight: false,
      newRight: true,
    });
    expect(result.changed.at(-1)).toEqual({
      target: 't65',
      reviewers: 'pass',
      old: 'pass',
      new: 'fail',
      oldRight: true,
      newRight: false,
    });
  });

  it('resamples the same targets for both versions: identical versions differ by exactly 0', () => {
    const same = heldOut(
      ['pass', 'pass', 'pass', 20],
      ['fail', 'pass', 'pass', 10],
      ['fail', 'fail', 'fail', 15],
    );
    const interval = definedInterval(backtestStatistics(same).kappaDifference.interval);
    expect(interval).toMatchObject({ low: 0, high: 0, undefinedResamples: 0 });
  });

  it('draws the same resamples for the same seed, and others for another seed', () => {
    const copies = (seed: number) => Array.from(targetResamples(12, 3, seed), (d) => [...d]);
    expect(copies(7)).toEqual(copies(7));
    expect(copies(7)).not.toEqual(copies(8));
    expect(
      copies(7)
        .flat()
        .every((i) => Number.isInteger(i) && i >= 0 && i < 12),
    ).toBe(true);
    expect(backtestStatistics(improved, { interval: { seed: 7 } })).toEqual(
      backtestStatistics(improved, { interval: { seed: 7 } }),
    );
  });

  it('says "no disagreement" when no target has exactly one version right, p = 1', () => {
    const result = backtestStatistics(
      heldOut(
        ['pass', 'pass', 'pass', 10],
        ['fail', 'fail', 'fail', 5],
        ['fail', 'pass', 'pass', 3],
      ),
    );
    expect(result.mcnemar).toEqual({
      test: 'no_disagreement',
      b: 0,
      c: 0,
      statistic: 0,
      pValue: 1,
      reason:
        'no disagreement: on every target both versions are right or both are wrong, so there is nothing to test (p = 1)',
    });
  });

  it('says κ and its difference are undefined when every verdict is one label', () => {
    const result = backtestStatistics(heldOut(['pass', 'pass', 'pass', 30]));
    expect(result.old.kappa).toMatchObject({ value: null, code: 'one_label_only' });
    expect(result.kappaDifference.difference).toMatchObject({
      value: null,
      code: 'one_label_only',
    });
    expect(result.kappaDifference.difference).toHaveProperty(
      'reason',
      expect.stringContaining('κ of the old version against the reviewers'),
    );
    expect(result.kappaDifference.interval).toMatchObject({ low: null, code: 'one_label_only' });
    expect(result.mcnemar.test).toBe('no_disagreement');
  });

  it("names the version whose κ is undefined when only one is: the new one's here", () => {
    const result = backtestStatistics(
      heldOut(['pass', 'fail', 'pass', 12], ['pass', 'pass', 'pass', 8]),
    );
    expect(result.old.kappa.value).toBe(0);
    expect(result.kappaDifference.difference).toHaveProperty(
      'reason',
      expect.stringContaining('κ of the new version against the reviewers'),
    );
    expect(result.mcnemar).toMatchObject({ test: 'exact_binomial', b: 0, c: 12 });
  });

  it(`gives the difference but says "too few" for an interval below ${MIN_MATCHED_FOR_INTERVAL} targets`, () => {
    const tiny = heldOut(['pass', 'fail', 'pass', 4], ['fail', 'fail', 'fail', 5]);
    const result = backtestStatistics(tiny);
    expect(result.kappaDifference.difference.value).toBe(1);
    expect(result.kappaDifference.interval).toEqual({
      low: null,
      high: null,
      code: 'too_few_matched_targets',
      reason: `too few matched targets (9; an interval needs at least ${MIN_MATCHED_FOR_INTERVAL})`,
    });
    const atTheMinimum = backtestStatistics([
      ...tiny,
      { target: 'one more', reviewers: 'pass', old: 'pass', new: 'pass' },
    ]);
    expect(atTheMinimum.kappaDifference.interval.low).not.toBeNull();
  });

  it('leaves out, and counts, the resamples where either κ is undefined', () => {
    // One fail among 12: a resample misses it with odds (11/12)^12 ≈ 0.35, and then old's κ is 0/0.
    const result = backtestStatistics(
      heldOut(['pass', 'pass', 'pass', 11], ['fail', 'pass', 'fail', 1]),
      { interval: { resamples: 4000 } },
    );
    const interval = definedInterval(result.kappaDifference.interval);
    expect(interval.undefinedResamples / 4000).toBeGreaterThan(0.3);
    expect(interval.undefinedResamples / 4000).toBeLessThan(0.4);
    expect(interval).toMatchObject({ low: 1, high: 1 });
  });

  it('says there is nothing to compare when no target has all three verdicts', () => {
    const result = backtestStatistics([{ target: 'a', reviewers: 'pass', old: null, new: 'pass' }]);
    expect(result).toMatchObject({ targets: 1, compared: 0, changed: [] });
    expect(result.kappaDifference.difference).toMatchObject({ code: 'no_matched_targets' });
    expect(result.mcnemar.test).toBe('no_disagreement');
  });

  it('lists the targets lacking a verdict, with what they lack, and leaves them out of every figure', () => {
    const result = backtestStatistics([
      ...improved,
      { target: 'no reviewers', reviewers: null, old: 'pass', new: 'pass' },
      { target: 'new failed', reviewers: 'fail', old: 'pass', new: undefined },
      { target: 'neither version', reviewers: 'fail', old: null, new: null },
    ]);
    expect(result.incomplete).toEqual([
      { target: 'no reviewers', missing: ['reviewers'] },
      { target: 'new failed', missing: ['new'] },
      { target: 'neither version', missing: ['old', 'new'] },
    ]);
    const without = backtestStatistics(improved);
    expect(result).toEqual({ ...without, targets: 69, incomplete: result.incomplete });
  });

  it('maps labels on all three sides, and keeps the declared labels in their order', () => {
    const result = backtestStatistics(
      [
        { target: 'a', reviewers: true, old: 'pass', new: 'pass' },
        { target: 'b', reviewers: false, old: 'pass', new: 'fail' },
        { target: 'c', reviewers: 'pass', old: true, new: true },
      ],
      { mapping: { pass: 'true', fail: 'false' }, labels: ['true', 'false', 'unsure'] },
    );
    expect(result.labels).toEqual(['true', 'false', 'unsure']);
    expect(result.new.confusion).toEqual([
      [2, 0, 0],
      [0, 1, 0],
      [0, 0, 0],
    ]);
    expect(result.mcnemar).toMatchObject({ b: 0, c: 1 });
  });

  it('refuses a repeated target, a value that is not a label, and options out of range', () => {
    const repeated = [...improved.slice(0, 3), improved[1] as HeldOutTarget];
    expect(() => backtestStatistics(repeated)).toThrow(
      new AgreementInputError('target t1 is given twice', 3),
    );
    expect(() =>
      backtestStatistics([{ target: 'x', reviewers: Number.NaN, old: 'a', new: 'a' }]),
    ).toThrow(AgreementInputError);
    expect(() => backtestStatistics(improved, { interval: { resamples: 0 } })).toThrow(
      'resamples is a positive integer, not 0',
    );
    expect(() => backtestStatistics(improved, { labels: ['pass', 'pass'] })).toThrow(
      'options.labels repeats a label',
    );
  });

  it('takes 10,000 held-out targets with 2,000 resamples in well under the time of judging them', () => {
    const labels = ['a', 'b', 'c'];
    const many = Array.from(
      { length: 10_000 },
      (_, i): HeldOutTarget => ({
        target: `t${i}`,
        reviewers: labels[i % 3],
        old: labels[i % 7 === 0 ? 0 : i % 3],
        new: labels[i % 5 === 0 ? 1 : i % 3],
      }),
    );
    const started = performance.now();
    const result: BacktestStatistics = backtestStatistics(many);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.mcnemar.test).toBe('chi_square_corrected');
  });
});

describe("McNemar's test", () => {
  it('refuses counts that are not counts', () => {
    expect(() => mcnemar(-1, 3)).toThrow(AgreementInputError);
    expect(() => mcnemar(1.5, 3)).toThrow('b and c are counts of targets, not 1.5');
  });
});

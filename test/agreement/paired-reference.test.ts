import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type BacktestStatistics,
  backtestStatistics,
  type Figure,
  type McNemar,
  mcnemar,
} from '../../src/agreement/index.js';
import { resampledIndices } from './fixtures/write-paired-cases.js';
import { mcnemarCounts, pairedCases } from './paired-cases.js';

// The backtest statistics against statsmodels and scipy on the same data and the same bootstrap
// resamples: fixtures/paired-cases.json holds the held-out sets and the target indices evalflow
// draws for each resample, fixtures/paired-reference.json what fixtures/paired_reference.py
// computed from them (its header says how to remake both). Both are checked in: no Python here.

/** Figures equal the reference's to this, relative to the larger of 1 and the reference. */
const TOLERANCE = 1e-12;

interface ReferenceMcNemar {
  readonly b: number;
  readonly c: number;
  readonly exact: boolean;
  readonly statistic: number;
  readonly pValue: number;
}

interface ReferenceCase {
  readonly name: string;
  readonly compared: number;
  readonly labels: string[];
  readonly oldConfusion: number[][];
  readonly newConfusion: number[][];
  readonly oldKappa: number | null;
  readonly newKappa: number | null;
  readonly difference: number | null;
  readonly interval: { low: number; high: number; undefinedResamples: number } | null;
  readonly mcnemar: ReferenceMcNemar;
  readonly changed: string[];
}

const fixtures = new URL('fixtures/', import.meta.url);
const read = (name: string): unknown => JSON.parse(readFileSync(new URL(name, fixtures), 'utf8'));
const inputs = read('paired-cases.json') as { cases: unknown[]; mcnemar: unknown[] };
const reference = read('paired-reference.json') as {
  cases: ReferenceCase[];
  mcnemar: ReferenceMcNemar[];
};

function close(what: string, ours: number | null, theirs: number | null) {
  if (theirs === null) {
    expect(ours, `${what}: the reference has none`).toBeNull();
    return;
  }
  expect(ours, `${what}: the reference has ${theirs}`).not.toBeNull();
  const difference = Math.abs((ours as number) - theirs) / Math.max(1, Math.abs(theirs));
  expect(difference, `${what}: ${ours} against ${theirs}`).toBeLessThanOrEqual(TOLERANCE);
}

/** The p-value to the reference's relative precision, however small it is. */
function closeP(ours: number, theirs: number) {
  expect(Math.abs(ours - theirs) / theirs, `p ${ours} against ${theirs}`).toBeLessThanOrEqual(
    TOLERANCE,
  );
}

function sameMcNemar(ours: McNemar, theirs: ReferenceMcNemar) {
  expect({ b: ours.b, c: ours.c }).toEqual({ b: theirs.b, c: theirs.c });
  const expected =
    theirs.b + theirs.c === 0
      ? 'no_disagreement'
      : theirs.exact
        ? 'exact_binomial'
        : 'chi_square_corrected';
  expect(ours.test).toBe(expected);
  close('statistic', ours.statistic, theirs.statistic);
  closeP(ours.pValue, theirs.pValue);
}

const value = (figure: Figure) => figure.value;

function sameCase(ours: BacktestStatistics, theirs: ReferenceCase) {
  expect(ours.compared).toBe(theirs.compared);
  expect(ours.labels).toEqual(theirs.labels);
  expect(ours.old.confusion).toEqual(theirs.oldConfusion);
  expect(ours.new.confusion).toEqual(theirs.newConfusion);
  close('κ old', value(ours.old.kappa), theirs.oldKappa);
  close('κ new', value(ours.new.kappa), theirs.newKappa);
  close('κ difference', value(ours.kappaDifference.difference), theirs.difference);
  const interval = ours.kappaDifference.interval;
  if (theirs.interval === null) {
    expect(interval.low).toBeNull();
  } else {
    close('interval low', interval.low, theirs.interval.low);
    close('interval high', interval.high, theirs.interval.high);
    expect(interval).toMatchObject({ undefinedResamples: theirs.interval.undefinedResamples });
  }
  sameMcNemar(ours.mcnemar, theirs.mcnemar);
  expect(ours.changed.map((changed) => changed.target)).toEqual(theirs.changed);
}

describe('backtest statistics equal statsmodels and scipy on the same data', () => {
  it('draws exactly the resamples the reference was computed on', () => {
    expect(inputs).toEqual(
      JSON.parse(
        JSON.stringify({
          cases: pairedCases.map((fixture) => ({
            ...fixture,
            resampledIndices: resampledIndices(fixture),
          })),
          mcnemar: mcnemarCounts,
        }),
      ),
    );
  });

  pairedCases.forEach((fixture, i) => {
    it(fixture.name, () => {
      const theirs = reference.cases[i] as ReferenceCase;
      expect(theirs.name).toBe(fixture.name);
      const ours = backtestStatistics(fixture.heldOut, {
        interval: { resamples: fixture.resamples, seed: fixture.seed },
      });
      sameCase(ours, theirs);
    });
  });

  it("McNemar's test at every (b, c) up to 30 and at large counts: exact below 25, else chi-square", () => {
    expect(reference.mcnemar).toHaveLength(mcnemarCounts.length);
    for (const theirs of reference.mcnemar) sameMcNemar(mcnemar(theirs.b, theirs.c), theirs);
  });
});

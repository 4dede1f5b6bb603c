import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  averageRanks,
  type CategoricalAgreement,
  categoricalAgreement,
  type Figure,
  type NumericAgreement,
  numericAgreement,
  type RaterAgreement,
  raterAgreement,
} from '../../src/agreement/index.js';
import { categoricalCases, numericCases, raterCases } from './fixtures.js';

// The figures of src/agreement against the reference implementations on the same data:
// scikit-learn (κ, confusion matrix, precision, recall, F1, accuracy, MAE, RMSE), scipy (Pearson,
// Spearman, average ranks), statsmodels (Fleiss' κ) and the krippendorff package (α, nominal).
// reference.py runs in a virtual environment of its own, with requirements.txt's pinned versions,
// made once under .evalflow/ and remade when that file changes. Python and pip are required: the
// test fails, saying so, when they are missing. The bootstrap interval is evalflow's alone and
// is tested in bootstrap.test.ts.

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));
const requirements = join(here, 'requirements.txt');
const work = join(root, '.evalflow', 'agreement');
const venv = join(work, 'venv');
const python = join(venv, 'bin', 'python');
const stamp = join(venv, 'evalflow-requirements.sha256');
/** The Python the environment is made with: python3 on PATH unless EVALFLOW_TEST_PYTHON names one. */
const basePython = process.env.EVALFLOW_TEST_PYTHON || 'python3';

/** Figures equal the reference's to this, relative to the larger of 1 and the reference. */
const TOLERANCE = 1e-12;

interface Ran {
  readonly code: number | null;
  readonly shown: string;
}

/** Runs a command to its end; a command that cannot start at all resolves with its error. */
function run(command: string, args: readonly string[]): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('error', (error) =>
      resolve({ code: null, shown: `${command} could not start: ${error.message}` }),
    );
    child.once('close', (code) =>
      resolve({ code, shown: `${command} ${args.join(' ')} exited ${code}\n${output}` }),
    );
  });
}

/** The virtual environment with the pinned requirements, made or remade when they changed. */
async function readyVenv(): Promise<void> {
  const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  const works = existsSync(python) && (await run(python, ['-c', 'import sys'])).code === 0;
  if (works && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const made = await run(basePython, ['-m', 'venv', venv]);
  if (made.code !== 0) {
    throw new Error(
      `The agreement reference test needs ${basePython} with venv and pip ` +
        `(on Debian: apt-get install python3 python3-venv).\n${made.shown}`,
    );
  }
  const installed = await run(python, [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    '-r',
    requirements,
  ]);
  if (installed.code !== 0) {
    throw new Error(`Installing ${requirements} failed; pip needs PyPI.\n${installed.shown}`);
  }
  writeFileSync(stamp, wanted);
}

interface CategoricalReference {
  readonly matched: number;
  readonly labels: string[];
  readonly confusion?: number[][];
  readonly rawAgreement?: number | null;
  readonly kappa?: number | null;
  readonly rateA?: number[];
  readonly rateB?: number[];
  readonly precision?: number[];
  readonly recall?: number[];
  readonly f1?: number[];
  readonly support?: number[];
  readonly macro?: { precision: number; recall: number; f1: number };
}

interface NumericReference {
  readonly matched: number;
  readonly meanA?: number;
  readonly meanB?: number;
  readonly mae?: number;
  readonly rmse?: number;
  readonly ranksA?: number[];
  readonly pearson?: number | null;
  readonly spearman?: number | null;
}

interface RaterReference {
  readonly labels: string[];
  readonly fleissKappa: number | null;
  readonly krippendorffAlpha: number | null;
}

interface Reference {
  readonly versions: Record<string, string>;
  readonly categorical: CategoricalReference[];
  readonly numeric: NumericReference[];
  readonly raters: RaterReference[];
}

let reference: Reference;
/** The largest relative difference seen, and where, for the summary line. */
let largest = { difference: 0, where: 'nowhere' };
/** The case being compared, named in the summary line. */
let current = '';

beforeAll(async () => {
  await readyVenv();
  mkdirSync(work, { recursive: true });
  const fixtures = join(work, 'fixtures.json');
  const out = join(work, 'reference.json');
  writeFileSync(
    fixtures,
    JSON.stringify({ categorical: categoricalCases, numeric: numericCases, raters: raterCases }),
  );
  rmSync(out, { force: true });
  const ran = await run(python, [join(here, 'reference.py'), fixtures, out]);
  if (ran.code !== 0) throw new Error(ran.shown);
  reference = JSON.parse(readFileSync(out, 'utf8')) as Reference;
}, 900_000);

/** Expects a figure to equal the reference's number, or to be undefined where it is null. */
function same(what: string, ours: Figure | number, theirs: number | null | undefined) {
  const value = typeof ours === 'number' ? ours : ours.value;
  if (theirs === null || theirs === undefined) {
    expect(value, `${what}: the reference has none`).toBeNull();
    return;
  }
  expect(value, `${what}: the reference has ${theirs}`).not.toBeNull();
  const difference = Math.abs((value as number) - theirs) / Math.max(1, Math.abs(theirs));
  if (difference > largest.difference) largest = { difference, where: `${current}: ${what}` };
  expect(difference, `${what}: ${value} against the reference's ${theirs}`).toBeLessThanOrEqual(
    TOLERANCE,
  );
}

const sameList = (what: string, ours: readonly number[], theirs: readonly number[] | undefined) => {
  expect(ours.length, `${what}: length`).toBe(theirs?.length);
  ours.forEach((value, i) => {
    same(`${what}[${i}]`, value, theirs?.[i]);
  });
};

function compareCategorical(ours: CategoricalAgreement, theirs: CategoricalReference) {
  expect(ours.matched).toBe(theirs.matched);
  expect(ours.labels).toEqual(theirs.labels);
  if (theirs.matched === 0) {
    for (const figure of [ours.rawAgreement, ours.kappa, ours.chanceAgreement]) {
      expect(figure).toMatchObject({ value: null, code: 'no_matched_targets' });
    }
    return;
  }
  expect(ours.confusion).toEqual(theirs.confusion);
  same('raw agreement', ours.rawAgreement, theirs.rawAgreement);
  same('κ', ours.kappa, theirs.kappa);
  const labels = ours.perLabel;
  const values = (figures: readonly Figure[]) => figures.map((figure) => figure.value as number);
  sameList('rate A', values(labels.map((l) => l.rateA)), theirs.rateA);
  sameList('rate B', values(labels.map((l) => l.rateB)), theirs.rateB);
  sameList(
    'precision',
    labels.map((l) => l.precision),
    theirs.precision,
  );
  sameList(
    'recall',
    labels.map((l) => l.recall),
    theirs.recall,
  );
  sameList(
    'F1',
    labels.map((l) => l.f1),
    theirs.f1,
  );
  expect(labels.map((l) => l.countA)).toEqual(theirs.support);
  same('macro precision', ours.macro.precision, theirs.macro?.precision);
  same('macro recall', ours.macro.recall, theirs.macro?.recall);
  same('macro F1', ours.macro.f1, theirs.macro?.f1);
}

function compareNumeric(ours: NumericAgreement, theirs: NumericReference, ranksA: Float64Array) {
  expect(ours.matched).toBe(theirs.matched);
  if (theirs.matched === 0) {
    expect(ours.pearson).toMatchObject({ value: null, code: 'no_matched_targets' });
    return;
  }
  same('mean A', ours.meanA, theirs.meanA);
  same('mean B', ours.meanB, theirs.meanB);
  same('MAE', ours.mae, theirs.mae);
  same('RMSE', ours.rmse, theirs.rmse);
  same('Pearson', ours.pearson, theirs.pearson);
  same('Spearman', ours.spearman, theirs.spearman);
  sameList('ranks of A', Array.from(ranksA), theirs.ranksA);
}

function compareRaters(ours: RaterAgreement, theirs: RaterReference) {
  expect(ours.labels).toEqual(theirs.labels);
  same("Fleiss' κ", ours.fleissKappa, theirs.fleissKappa);
  same("Krippendorff's α", ours.krippendorffAlpha, theirs.krippendorffAlpha);
}

const matchedA = (a: readonly (number | null | undefined)[], b: readonly unknown[]) =>
  Float64Array.from(
    a.filter((x, i) => x !== null && x !== undefined && b[i] !== null && b[i] !== undefined),
  );

describe('agreement figures equal the reference implementations', () => {
  describe('categorical: scikit-learn', () => {
    categoricalCases.forEach((fixture, i) => {
      it(fixture.name, () => {
        current = fixture.name;
        compareCategorical(
          categoricalAgreement(fixture.a, fixture.b, fixture),
          reference.categorical[i] as CategoricalReference,
        );
      });
    });
  });

  describe('numeric: scipy and scikit-learn', () => {
    numericCases.forEach((fixture, i) => {
      it(fixture.name, () => {
        current = fixture.name;
        compareNumeric(
          numericAgreement(fixture.a, fixture.b),
          reference.numeric[i] as NumericReference,
          averageRanks(matchedA(fixture.a, fixture.b)),
        );
      });
    });
  });

  describe('raters: statsmodels and krippendorff', () => {
    raterCases.forEach((fixture, i) => {
      it(fixture.name, () => {
        current = fixture.name;
        compareRaters(raterAgreement(fixture.targets), reference.raters[i] as RaterReference);
      });
    });
  });

  it('ran the pinned versions', () => {
    const pinned = Object.fromEntries(
      readFileSync(requirements, 'utf8')
        .split('\n')
        .filter((line) => line.includes('=='))
        .map((line) => line.split('==') as [string, string]),
    );
    for (const [name, version] of Object.entries(reference.versions)) {
      expect(version, name).toBe(pinned[name]);
    }
    console.log(
      `agreement reference: largest relative difference ${largest.difference.toExponential(2)} ` +
        `(${largest.where}; tolerance ${TOLERANCE}); ${JSON.stringify(reference.versions)}`,
    );
  });
});

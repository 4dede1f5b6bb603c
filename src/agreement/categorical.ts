// Agreement of two sides on a categorical or boolean field: the confusion matrix of the targets
// both sides judged, raw agreement, Cohen's κ with its bootstrap interval, each side's base rates,
// and precision, recall and F1 per label with side A as the truth. One pass over the targets
// builds the matrix; every figure after that is computed from its cells.

import { type Interval, type IntervalOptions, kappaInterval } from './bootstrap.js';
import { AgreementInputError } from './errors.js';
import { defined, type Figure, undefinedFigure } from './figures.js';
import { kappaOfCells } from './kappa.js';
import {
  compareCodePoints,
  encodeLabels,
  type LabelCodes,
  type LabelMapping,
  type MaybeLabel,
} from './labels.js';

/** How two sides' labels are compared. */
export interface CategoricalOptions {
  /**
   * The field's labels (after the mapping), in the order the result lists them: a categorical
   * type's categories, say, so a label nobody gave still has its row. Labels seen on matched
   * targets but not named here follow in code-point order. Without it: the labels seen on matched
   * targets, in code-point order, which is scikit-learn's order.
   */
  readonly labels?: readonly string[];
  /** Renames labels on both sides before comparing; see `LabelMapping`. */
  readonly mapping?: LabelMapping;
  /** How the κ interval is drawn. */
  readonly interval?: IntervalOptions;
}

/**
 * One label's figures over the matched targets, with side A as the truth and side B as the
 * prediction: they equal scikit-learn's `precision_recall_fscore_support(y_true=A, y_pred=B,
 * labels=labels, zero_division=0)`, so a ratio whose denominator is 0 is 0, not undefined.
 */
export interface LabelAgreement {
  readonly label: string;
  /** Matched targets side A gave this label (scikit-learn's support). */
  readonly countA: number;
  /** Matched targets side B gave this label. */
  readonly countB: number;
  /** Side A's base rate: `countA / matched`. */
  readonly rateA: Figure;
  /** Side B's base rate: `countB / matched`. */
  readonly rateB: Figure;
  /** Of the targets B gave this label, the share A gave it too; 0 when B never gave it. */
  readonly precision: number;
  /** Of the targets A gave this label, the share B gave it too; 0 when A never gave it. */
  readonly recall: number;
  /** Harmonic mean of precision and recall, `2·both / (countA + countB)`; 0 when both counts are 0. */
  readonly f1: number;
}

/** Unweighted means over the result's labels (scikit-learn's `average='macro'`). */
export interface MacroAgreement {
  readonly precision: Figure;
  readonly recall: Figure;
  readonly f1: Figure;
}

/** How two sides' labels on the same targets agree. Plain JSON. */
export interface CategoricalAgreement {
  /** Targets given (the length of each side). */
  readonly targets: number;
  /** Targets both sides gave a label: every figure below is over these. */
  readonly matched: number;
  /** Targets only side A gave a label. */
  readonly onlyA: number;
  /** Targets only side B gave a label. */
  readonly onlyB: number;
  /** The labels, in the order of the matrix's rows and columns and of `perLabel`. */
  readonly labels: readonly string[];
  /** `confusion[i][j]`: matched targets A labelled `labels[i]` and B labelled `labels[j]`. */
  readonly confusion: readonly (readonly number[])[];
  /** Share of matched targets with the same label on both sides (accuracy). */
  readonly rawAgreement: Figure;
  /** The agreement expected by chance from the base rates: `Σ rateAᵢ·rateBᵢ`. */
  readonly chanceAgreement: Figure;
  /** Cohen's κ, scikit-learn's `cohen_kappa_score(A, B)`; null where that is NaN. */
  readonly kappa: Figure;
  /** κ's percentile bootstrap interval over targets (95 % by default, seeded). */
  readonly kappaInterval: Interval;
  readonly perLabel: readonly LabelAgreement[];
  readonly macro: MacroAgreement;
}

/** Counts of the targets, and the confusion matrix's cells (row-major, rows side A). */
interface Tally {
  readonly targets: number;
  readonly onlyA: number;
  readonly onlyB: number;
  readonly cells: Float64Array;
}

function tally(codes: LabelCodes): Tally {
  const { a, b } = codes;
  const size = codes.labels.length;
  if (a.length !== b.length) {
    throw new AgreementInputError(
      `the two sides are aligned by target, so they have the same length; they have ${a.length} and ${b.length}`,
    );
  }
  const cells = new Float64Array(size * size);
  let onlyA = 0;
  let onlyB = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x < -1 || x >= size || y < -1 || y >= size) {
      throw new AgreementInputError(
        `label code ${x < -1 || x >= size ? x : y} is not one of the ${size} labels`,
        i,
      );
    }
    if (x >= 0 && y >= 0) cells[x * size + y] = (cells[x * size + y] as number) + 1;
    else if (x >= 0) onlyA += 1;
    else if (y >= 0) onlyB += 1;
  }
  return { targets: a.length, onlyA, onlyB, cells };
}

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

function figuresOf(
  labels: readonly string[],
  { targets, onlyA, onlyB, cells }: Tally,
  options: CategoricalOptions,
): CategoricalAgreement {
  const size = labels.length;
  const rows = new Float64Array(size);
  const columns = new Float64Array(size);
  const kappa = kappaOfCells(cells, size, rows, columns);
  let matched = 0;
  let agreed = 0;
  let chance = 0;
  for (let i = 0; i < size; i += 1) {
    matched += rows[i] as number;
    agreed += cells[i * size + i] as number;
    chance += (rows[i] as number) * (columns[i] as number);
  }
  const none = undefinedFigure('no_matched_targets');
  const share = (count: number): Figure => (matched === 0 ? none : defined(count / matched));
  const perLabel = labels.map((label, i): LabelAgreement => {
    const both = cells[i * size + i] as number;
    const countA = rows[i] as number;
    const countB = columns[i] as number;
    return {
      label,
      countA,
      countB,
      rateA: share(countA),
      rateB: share(countB),
      precision: ratio(both, countB),
      recall: ratio(both, countA),
      f1: ratio(2 * both, countA + countB),
    };
  });
  const mean = (pick: (l: LabelAgreement) => number): Figure =>
    matched === 0 ? none : defined(perLabel.reduce((sum, l) => sum + pick(l), 0) / size);
  const confusion = labels.map((_, i) => Array.from(cells.subarray(i * size, (i + 1) * size)));
  return {
    targets,
    matched,
    onlyA,
    onlyB,
    labels: [...labels],
    confusion,
    rawAgreement: share(agreed),
    chanceAgreement: matched === 0 ? none : defined(chance / (matched * matched)),
    kappa:
      matched === 0
        ? none
        : Number.isNaN(kappa)
          ? undefinedFigure('one_label_only')
          : defined(kappa),
    kappaInterval: kappaInterval(cells, size, options.interval),
    perLabel,
    macro: {
      precision: mean((l) => l.precision),
      recall: mean((l) => l.recall),
      f1: mean((l) => l.f1),
    },
  };
}

/**
 * Agreement of two sides given as integer codes (`-1`: no verdict), with the labels in the order
 * given: the fast path for a caller that reads codes from a store. `options.labels` and
 * `options.mapping` do not apply; the codes' labels are the result's.
 *
 * @throws AgreementInputError when the sides differ in length or a code is out of range.
 */
export function categoricalAgreementOfCodes(
  codes: LabelCodes,
  options: Pick<CategoricalOptions, 'interval'> = {},
): CategoricalAgreement {
  return figuresOf(codes.labels, tally(codes), options);
}

/**
 * How side A's and side B's labels agree, target by target: `a[i]` and `b[i]` are the two sides'
 * verdicts on target i, null (or undefined) where a side gave none. Only targets both sides
 * judged are compared; a label seen only on the others is not listed unless `options.labels`
 * names it.
 *
 * @throws AgreementInputError when the sides differ in length, a value is not a label, or
 * `options.labels` repeats a label.
 */
export function categoricalAgreement(
  a: readonly MaybeLabel[],
  b: readonly MaybeLabel[],
  options: CategoricalOptions = {},
): CategoricalAgreement {
  const codes = encodeLabels(a, b, options.mapping);
  const seen = tally(codes);
  const first = codes.labels.length;
  const used = new Uint8Array(first);
  for (let i = 0; i < first; i += 1) {
    for (let j = 0; j < first; j += 1) {
      if ((seen.cells[i * first + j] as number) > 0) {
        used[i] = 1;
        used[j] = 1;
      }
    }
  }
  const declared = options.labels ?? [];
  if (new Set(declared).size !== declared.length) {
    throw new AgreementInputError(`options.labels repeats a label: ${declared.join(', ')}`);
  }
  const named = new Set(declared);
  const rest = codes.labels
    .filter((label, code) => used[code] === 1 && !named.has(label))
    .sort(compareCodePoints);
  const labels = [...declared, ...rest];
  const index = new Map(labels.map((label, i) => [label, i]));
  const size = labels.length;
  const cells = new Float64Array(size * size);
  for (let i = 0; i < first; i += 1) {
    const row = index.get(codes.labels[i] as string);
    if (row === undefined) continue;
    for (let j = 0; j < first; j += 1) {
      const column = index.get(codes.labels[j] as string);
      if (column === undefined) continue;
      cells[row * size + column] = seen.cells[i * first + j] as number;
    }
  }
  return figuresOf(labels, { ...seen, cells }, options);
}

// Labels as text and as integer codes. A categorical or boolean verdict becomes its text (booleans
// 'true' and 'false', numbers as JavaScript writes them), then the caller's mapping renames it;
// the statistics count integer codes, never strings.

import { AgreementInputError } from './errors.js';

/** A verdict's value on a categorical or boolean field. */
export type Label = string | boolean | number;

/** A side's verdict on one target: its label, or null (or undefined) when it gave none. */
export type MaybeLabel = Label | null | undefined;

/**
 * Renames labels before they are compared, applied to both sides alike: `{ pass: 'true',
 * fail: 'false' }` makes an evaluator's 'pass' agree with a reviewer's `true`. Keys are label
 * texts; a label without a key keeps its text.
 */
export type LabelMapping = Readonly<Record<string, string>>;

/** The integer codes of two sides' labels, per target: `-1` where a side gave no verdict. */
export interface LabelCodes {
  /** The label of each code, by code. */
  readonly labels: readonly string[];
  readonly a: Int32Array;
  readonly b: Int32Array;
}

/** A label's text, before any mapping: booleans are 'true' and 'false'. */
function textOf(value: Label, index: number | null): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new AgreementInputError(
    `a label is a string, a boolean or a finite number, not ${String(value)}`,
    index,
  );
}

/** A label's text after the mapping. */
export function labelText(
  value: Label,
  mapping?: LabelMapping,
  index: number | null = null,
): string {
  const text = textOf(value, index);
  return mapping !== undefined && Object.hasOwn(mapping, text) ? (mapping[text] as string) : text;
}

/** Orders strings by Unicode code point, as Python (and so scikit-learn's sorted labels) does. */
export function compareCodePoints(x: string, y: string): number {
  const length = Math.min(x.length, y.length);
  for (let i = 0; i < length; i += 1) {
    const cx = x.codePointAt(i) as number;
    const cy = y.codePointAt(i) as number;
    if (cx !== cy) return cx - cy;
    if (cx > 0xffff) i += 1;
  }
  return x.length - y.length;
}

/** Integer codes for labels, numbered in the order they are first coded. */
export interface LabelCoder {
  /** The label of each code, by code. */
  readonly labels: readonly string[];
  /** A label's code after the mapping; `index` is the target named if it is not a label. */
  code(value: Label, index?: number | null): number;
}

/** A coder numbering labels from 0, renaming each by `mapping` first. */
export function labelCoder(mapping?: LabelMapping): LabelCoder {
  const labels: string[] = [];
  const codes = new Map<string, number>();
  return {
    labels,
    code(value, index = null) {
      const text = labelText(value, mapping, index);
      let code = codes.get(text);
      if (code === undefined) {
        code = labels.length;
        codes.set(text, code);
        labels.push(text);
      }
      return code;
    },
  };
}

/**
 * Codes both sides' labels in one pass, numbering labels in the order they first appear.
 *
 * @throws AgreementInputError when the sides differ in length or a value is not a label.
 */
export function encodeLabels(
  a: readonly MaybeLabel[],
  b: readonly MaybeLabel[],
  mapping?: LabelMapping,
): LabelCodes {
  if (a.length !== b.length) {
    throw new AgreementInputError(
      `the two sides are aligned by target, so they have the same length; they have ${a.length} and ${b.length}`,
    );
  }
  const coder = labelCoder(mapping);
  const codeOf = (value: MaybeLabel, index: number): number =>
    value === null || value === undefined ? -1 : coder.code(value, index);
  const codesA = new Int32Array(a.length);
  const codesB = new Int32Array(b.length);
  for (let i = 0; i < a.length; i += 1) {
    codesA[i] = codeOf(a[i], i);
    codesB[i] = codeOf(b[i], i);
  }
  return { labels: coder.labels, a: codesA, b: codesB };
}

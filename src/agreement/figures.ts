// What every agreement result is made of: a figure is a number, or null with the reason the data
// leave it undefined. Each reason is declared once here, by a stable code, with its sentence.

/** Why a figure is undefined, by code, with the sentence a reader is shown. */
export const UNDEFINED_REASONS = {
  no_matched_targets: 'no target has a verdict from both sides',
  one_label_only:
    'both sides gave every matched target the same one label, so chance agreement is 1 and κ is 0/0 ' +
    "(scikit-learn's cohen_kappa_score returns NaN)",
  too_few_matched_targets: 'too few matched targets',
  too_few_pairs: 'fewer than 2 matched pairs',
  constant_side: 'one side gives every matched target the same value, so a correlation is 0/0',
  no_pairable_targets: 'no target has two or more ratings',
  unequal_ratings: "targets have different numbers of ratings (Fleiss' κ needs the same number)",
  one_value_only: 'every rating is the same one label, so chance disagreement is 0',
  every_resample_undefined: 'κ is undefined in every resample',
} as const;

/** The stable code of a reason a figure is undefined. */
export type UndefinedCode = keyof typeof UNDEFINED_REASONS;

/** A figure the data define. */
export interface DefinedFigure {
  readonly value: number;
}

/** A figure the data leave undefined: `value` is null, and `code` and `reason` say why. */
export interface UndefinedFigure {
  readonly value: null;
  readonly code: UndefinedCode;
  readonly reason: string;
}

/** One figure of a result, defined or not; plain JSON either way. */
export type Figure = DefinedFigure | UndefinedFigure;

export const defined = (value: number): DefinedFigure => ({ value });

export const undefinedFigure = (code: UndefinedCode, detail?: string): UndefinedFigure => ({
  value: null,
  code,
  reason: detail === undefined ? UNDEFINED_REASONS[code] : `${UNDEFINED_REASONS[code]} (${detail})`,
});

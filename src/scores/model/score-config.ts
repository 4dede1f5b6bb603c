export const SCORE_DATA_TYPES = ['NUMERIC', 'BOOLEAN', 'CATEGORICAL', 'TEXT'] as const;
/** How a score's value is read, as Langfuse and the OpenTelemetry conventions name the kinds. */
export type ScoreDataType = (typeof SCORE_DATA_TYPES)[number];

/**
 * Whether two populations' verdicts on a field of this type can be compared (agreement, and the
 * evaluators page): labels and numbers can; a free text cannot.
 */
export const isComparable = (dataType: ScoreDataType): boolean => dataType !== 'TEXT';

/** The longest category or text a score holds, in UTF-16 code units (as Langfuse counts). */
export const MAX_TEXT = 500;

/**
 * How one field of a type is scored, for a backend to check and present its scores by.
 * Configs are created once per name and never updated (`syncScoreConfigs`).
 */
export interface ScoreConfig {
  /** `{typeName}.{field}`: the name of every score of this field. */
  readonly name: string;
  readonly typeName: string;
  readonly field: string;
  readonly dataType: ScoreDataType;
  /** The field's outermost description; null when it has none. */
  readonly description: string | null;
  /** A NUMERIC field's lower bound as declared (`.gt(0)` is 0, even for an int); else null. */
  readonly minimum: number | null;
  /** A NUMERIC field's upper bound as declared; else null. */
  readonly maximum: number | null;
  /** A CATEGORICAL field's choices as strings, in declaration order; empty otherwise. */
  readonly categories: readonly string[];
}

import { z } from 'zod';
import { InvalidScoreError, problemsOf } from '../errors.js';
import { SCORE_DATA_TYPES } from './score-config.js';

/** Keys of `scoreMetadata` that the evaluator fields own, so a source may not use them. */
const RESERVED_SOURCE_KEYS = ['evaluator', 'version', 'confidence'] as const;

const VALUE_KINDS = {
  BOOLEAN: 'boolean',
  NUMERIC: 'number',
  CATEGORICAL: 'string',
  TEXT: 'string',
} as const;

/**
 * One field of a verdict or of people's feedback as a named value, attached to a trace (and
 * within it a span) or to a session. Unknown keys are refused.
 */
export const ScoreSchema = z
  .strictObject({
    /** Derived from what the score is about and its name, so recording again replaces it. */
    id: z.string().min(1),
    /** `{type}.{field}`. */
    name: z.string().min(1),
    value: z.union([z.boolean(), z.number(), z.string()]),
    dataType: z.enum(SCORE_DATA_TYPES),
    traceId: z
      .string()
      .regex(/^[0-9a-f]{32}$/, 'a trace id is 32 lowercase hex digits')
      .optional(),
    spanId: z
      .string()
      .regex(/^[0-9a-f]{16}$/, 'a span id is 16 lowercase hex digits')
      .optional(),
    sessionId: z.string().min(1).optional(),
    /** When the score was given, ISO-8601 with a zone; a sink may stamp one when absent. */
    timestamp: z.iso
      .datetime({ offset: true, error: 'a timestamp is ISO-8601 with a zone (Z or ±hh:mm)' })
      .optional(),
    /** The evaluator that gave the verdict; absent for people's feedback. */
    evaluator: z.string().min(1).optional(),
    version: z.string().min(1).optional(),
    confidence: z.number().optional(),
    /** Where the score came from beyond an evaluator, such as the tenant and the person. */
    source: z.record(z.string(), z.string()).default({}),
  })
  // Runs once every field parsed, and `value`'s z.number() refuses NaN and ±Infinity: a NUMERIC
  // value of the right kind is finite here.
  .superRefine((score, context) => {
    const expected = VALUE_KINDS[score.dataType];
    if (typeof score.value !== expected) {
      context.addIssue({
        code: 'custom',
        path: ['value'],
        message: `a ${score.dataType} score's value is a ${expected}, not ${JSON.stringify(score.value)}`,
      });
    }
    if (score.spanId !== undefined && score.traceId === undefined) {
      context.addIssue({ code: 'custom', path: ['spanId'], message: 'a span needs a trace' });
    }
    const clashes = RESERVED_SOURCE_KEYS.filter((key) => Object.hasOwn(score.source, key));
    if (clashes.length > 0) {
      context.addIssue({
        code: 'custom',
        path: ['source'],
        message: `source keys ${clashes.join(', ')} clash with the evaluator fields of the metadata`,
      });
    }
  });

export type Score = z.output<typeof ScoreSchema>;
/** What `parseScore` accepts: a `Score` whose `source` may be left out. */
export type ScoreInput = z.input<typeof ScoreSchema>;

/** A score's metadata: its source entries, then evaluator, version and confidence when set. */
export function scoreMetadata(score: Score): Record<string, string | number> {
  const metadata: Record<string, string | number> = { ...score.source };
  if (score.evaluator !== undefined) metadata.evaluator = score.evaluator;
  if (score.version !== undefined) metadata.version = score.version;
  if (score.confidence !== undefined) metadata.confidence = score.confidence;
  return metadata;
}

/**
 * Checks one score and fills its defaults.
 *
 * @throws InvalidScoreError listing every problem.
 */
export function parseScore(input: unknown): Score {
  return parseScores([input])[0] as Score;
}

/**
 * Checks every score before any is used, so a batch with one bad score is refused whole.
 *
 * @throws InvalidScoreError listing every problem of every score.
 */
export function parseScores(inputs: readonly unknown[]): Score[] {
  const scores: Score[] = [];
  const problems: string[] = [];
  inputs.forEach((input, index) => {
    const parsed = ScoreSchema.safeParse(input);
    if (parsed.success) scores.push(parsed.data);
    else {
      const label = scoreLabel(input, index);
      for (const problem of problemsOf(parsed.error)) problems.push(`${label}: ${problem}`);
    }
  });
  if (problems.length > 0) {
    throw new InvalidScoreError(`invalid score: ${problems.join('; ')}`, problems);
  }
  return scores;
}

function scoreLabel(input: unknown, index: number): string {
  if (typeof input === 'object' && input !== null) {
    const { id, name } = input as { id?: unknown; name?: unknown };
    if (typeof name === 'string' && typeof id === 'string') return `score ${name} (${id})`;
  }
  return `score #${index + 1}`;
}

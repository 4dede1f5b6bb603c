import { z } from 'zod';
import { MAX_TEXT, type ScoreConfig } from './config.js';
import { fieldPlans, type ScoreTypeOptions } from './configs.js';
import { InvalidScoreValueError } from './errors.js';

/** A score's value: a boolean for BOOLEAN, a number for NUMERIC, a string otherwise. */
export type ScoreValue = boolean | number | string;

/** One scored field of a value, with its config. */
export interface ScoredValue {
  readonly config: ScoreConfig;
  readonly value: ScoreValue;
}

/**
 * Pairs each scorable field of a validated value (the parsed object, or its JSON) with its config
 * and score value, in field order. `null`, `undefined`, `""` and a missing field give no score;
 * `0` and `false` do. A category or text is cut at `MAX_TEXT`.
 *
 * Each field that would be scored is checked against its own schema, so a value that does not
 * match its type never becomes a score; fields that are not scored are not read.
 *
 * @throws InvalidScoreValueError when the value is not an object or a scored field fails its schema.
 * @throws ScoreMappingError as `scoreConfigs` does.
 */
export function scoreValues(
  schema: z.core.$ZodType,
  value: unknown,
  options: ScoreTypeOptions,
): ScoredValue[] {
  const plans = fieldPlans(schema, options);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidScoreValueError(
      `${options.typeName} scores are read from an object, not ${kindOf(value)}`,
      null,
      [],
    );
  }
  const fields = value as Record<string, unknown>;
  const scored: ScoredValue[] = [];
  for (const { config, schema: fieldSchema } of plans) {
    const raw = Object.hasOwn(fields, config.field) ? fields[config.field] : undefined;
    if (isEmpty(raw)) continue;
    const parsed = z.safeParse(fieldSchema, raw);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(describeIssue);
      throw new InvalidScoreValueError(
        `${config.name}: the value does not match its schema (${problems.join('; ')})`,
        config.field,
        problems,
      );
    }
    if (isEmpty(parsed.data)) continue;
    scored.push({ config, value: toScoreValue(config, parsed.data) });
  }
  return scored;
}

function isEmpty(raw: unknown): boolean {
  return raw === undefined || raw === null || raw === '';
}

function toScoreValue(config: ScoreConfig, parsed: unknown): ScoreValue {
  switch (config.dataType) {
    case 'BOOLEAN':
      if (typeof parsed === 'boolean') return parsed;
      break;
    case 'NUMERIC':
      if (typeof parsed === 'number' && Number.isFinite(parsed)) return parsed;
      break;
    default:
      if (['string', 'number', 'boolean', 'bigint'].includes(typeof parsed)) {
        return cutText(String(parsed));
      }
  }
  throw new InvalidScoreValueError(
    `${config.name}: a ${config.dataType} score cannot hold ${kindOf(parsed)}`,
    config.field,
    [],
  );
}

/** Cuts at `MAX_TEXT` UTF-16 units, one earlier where the cut would split a surrogate pair. */
export function cutText(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  const last = text.charCodeAt(MAX_TEXT - 1);
  const splitsPair = last >= 0xd800 && last <= 0xdbff;
  return text.slice(0, splitsPair ? MAX_TEXT - 1 : MAX_TEXT);
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.');
  return path === '' ? issue.message : `${path}: ${issue.message}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return `a ${typeof value}`;
}

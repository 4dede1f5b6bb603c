import type { z } from 'zod';
import {
  fieldPlans,
  type ScoredFieldPlan,
  type ScoreTypeOptions,
} from '../configs/schema-configs.js';
import { InvalidScoreValueError, withArticle } from '../errors.js';
import { MAX_TEXT, type ScoreConfig } from '../model/score-config.js';
import { checkedField, fieldChecks } from './field-checks.js';

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
 * match its type never becomes a score; fields that are not scored are not read. A schema's
 * checks are compiled once (`compiledCheck`), and zod parses only what they do not prove.
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
  const checks = fieldChecks(plans);
  const scored: ScoredValue[] = [];
  for (let i = 0; i < plans.length; i++) {
    const plan = plans[i] as ScoredFieldPlan;
    const field = plan.config.field;
    const raw = fields[field];
    if (isEmpty(raw) || !Object.hasOwn(fields, field)) continue;
    const parsed = checkedField(plan, checks[i] ?? null, raw);
    if (isEmpty(parsed)) continue;
    scored.push({ config: plan.config, value: toScoreValue(plan.config, parsed) });
  }
  return scored;
}

export function isEmpty(raw: unknown): boolean {
  return raw === undefined || raw === null || raw === '';
}

export function toScoreValue(config: ScoreConfig, parsed: unknown): ScoreValue {
  const kind = typeof parsed;
  if (config.dataType === 'BOOLEAN') {
    if (kind === 'boolean') return parsed as boolean;
  } else if (config.dataType === 'NUMERIC') {
    if (kind === 'number' && Number.isFinite(parsed)) return parsed as number;
  } else if (kind === 'string') {
    return cutText(parsed as string);
  } else if (kind === 'number' || kind === 'boolean' || kind === 'bigint') {
    return cutText(String(parsed));
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

export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return withArticle(typeof value);
}

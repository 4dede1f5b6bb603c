import type { z } from 'zod';
import {
  fieldPlans,
  type ScoredFieldPlan,
  type ScoreTypeOptions,
} from '../configs/schema-configs.js';
import { InvalidScoreValueError } from '../errors.js';
import { MAX_TEXT, type ScoreConfig } from '../model/score-config.js';
import { isEmpty, kindOf, type ScoredValue, toScoreValue } from './score-values.js';

/**
 * `scoreValues` for a value its schema already accepted (the stored output of its parse, or that
 * output's JSON): the same scores in the same order, without parsing the fields again. Each
 * scored field is still checked to be of its score's kind, so a value that cannot be a score is
 * never sent; anything finer (ranges, enum members, refinements) is taken as validated. Use
 * `scoreValues` for values nothing has validated.
 *
 * @throws InvalidScoreValueError when the value is not an object or a scored field is of the
 * wrong kind for its score.
 * @throws ScoreMappingError as `scoreConfigs` does.
 */
export function scoreValidatedValues(
  schema: z.core.$ZodType,
  value: unknown,
  options: ScoreTypeOptions,
): ScoredValue[] {
  // The type last mapped first: a mirror maps one type many times in a row.
  const mapper =
    last !== null && last.schema === schema && last.typeName === options.typeName
      ? last.mapper
      : mapperFor(schema, options);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidScoreValueError(
      `${options.typeName} scores are read from an object, not ${kindOf(value)}`,
      null,
      [],
    );
  }
  return mapper(value as Record<string, unknown>);
}

type Mapper = (fields: Record<string, unknown>) => ScoredValue[];

const mappers = new WeakMap<readonly ScoredFieldPlan[], Mapper>();

let last: { schema: z.core.$ZodType; typeName: string; mapper: Mapper } | null = null;

function mapperFor(schema: z.core.$ZodType, options: ScoreTypeOptions): Mapper {
  const plans = fieldPlans(schema, options);
  let mapper = mappers.get(plans);
  if (mapper === undefined) {
    const configs = plans.map((plan) => plan.config);
    mapper = compiledMapper(configs) ?? loopMapper(configs);
    mappers.set(plans, mapper);
  }
  last = { schema, typeName: options.typeName, mapper };
  return mapper;
}

/** Reads the fields by name, one after the other: the mapping wherever code cannot be compiled. */
function loopMapper(configs: readonly ScoreConfig[]): Mapper {
  return (fields) => {
    const scored: ScoredValue[] = [];
    for (let i = 0; i < configs.length; i++) {
      const config = configs[i] as ScoreConfig;
      const raw = fields[config.field];
      if (isEmpty(raw) || !Object.hasOwn(fields, config.field)) continue;
      scored.push({ config, value: toScoreValue(config, raw) });
    }
    return scored;
  };
}

/**
 * The same mapping as one function per type, each field read by its literal name, as zod
 * compiles its object parsers: reading fields by a changing name is most of the loop's cost.
 * A value of the expected kind is taken inline; any other goes to `toScoreValue`, which converts
 * or refuses it as the loop does. Only a field named like a property of `Object.prototype` needs
 * an own-property check, and only objects whose prototype is `Object.prototype` or null (JSON's
 * and zod's) take this path. Names enter the code only as JSON string literals. Null where the
 * runtime forbids compiling code (a content security policy, for example).
 */
function compiledMapper(configs: readonly ScoreConfig[]): Mapper | null {
  const steps = configs.map((config, i) => {
    const name = JSON.stringify(config.field);
    const own = config.field in Object.prototype ? ` && hasOwn(fields, ${name})` : '';
    return `raw = fields[${name}];
      if (raw !== undefined && raw !== null && raw !== ''${own})
        scored.push({ config: configs[${i}], value: ${inlineValue(config, i)} });`;
  });
  try {
    const make = new Function(
      'configs',
      'toScoreValue',
      'hasOwn',
      'MAX_TEXT',
      'plain',
      'loop',
      `return function mapScores(fields) {
        if (!plain(fields)) return loop(fields);
        const scored = [];
        let raw;
        ${steps.join('\n')}
        return scored;
      };`,
    ) as (...parts: unknown[]) => Mapper;
    return make(configs, toScoreValue, Object.hasOwn, MAX_TEXT, isPlain, loopMapper(configs));
  } catch {
    return null;
  }
}

function inlineValue(config: ScoreConfig, i: number): string {
  const fallback = `toScoreValue(configs[${i}], raw)`;
  switch (config.dataType) {
    case 'BOOLEAN':
      return `raw === true || raw === false ? raw : ${fallback}`;
    case 'NUMERIC':
      return `Number.isFinite(raw) ? raw : ${fallback}`;
    default:
      return `typeof raw === 'string' && raw.length <= MAX_TEXT ? raw : ${fallback}`;
  }
}

const isPlain = (value: object) => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

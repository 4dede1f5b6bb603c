import type { z } from 'zod';
import { ScoreMappingError } from '../errors.js';
import type { ScoreConfig } from '../model/score-config.js';
import { objectShape, readField } from './schema-reading.js';

/** The `{typeName}` of the scores' names, such as a feedback type's registered name. */
export interface ScoreTypeOptions {
  readonly typeName: string;
}

/** A scorable field: its config, and the field's own schema to check a value with. */
export interface ScoredFieldPlan {
  readonly config: ScoreConfig;
  readonly schema: z.core.$ZodType;
}

interface Plan {
  readonly configs: readonly ScoreConfig[];
  readonly fields: readonly ScoredFieldPlan[];
}

// Per schema object, then per type name. A WeakMap lets a schema that is dropped be collected.
const plans = new WeakMap<object, Map<string, Plan>>();

/**
 * One config per field that can be scored, in field order, named `{typeName}.{field}`. Fields
 * that cannot be judged are skipped: arrays, objects, records, tuples, unions of two or more
 * non-null members (literals and enums included), formatted strings (`z.uuid()`, `z.email()`,
 * `z.iso.datetime()`...), transforms, and pipes that do not give a plain string from one.
 * The result is computed once per (schema, typeName) and frozen.
 *
 * @throws ScoreMappingError when the schema is not an object schema or the type name is empty.
 */
export function scoreConfigs(
  schema: z.core.$ZodType,
  options: ScoreTypeOptions,
): readonly ScoreConfig[] {
  return plan(schema, options).configs;
}

/** The memoized plan behind `scoreConfigs`, which `scoreValues` also follows. */
export function fieldPlans(
  schema: z.core.$ZodType,
  options: ScoreTypeOptions,
): readonly ScoredFieldPlan[] {
  return plan(schema, options).fields;
}

// The plan last asked for: a mirror or a benchmark asks for one type many times in a row.
let last: { schema: z.core.$ZodType; typeName: string; plan: Plan } | null = null;

function plan(schema: z.core.$ZodType, { typeName }: ScoreTypeOptions): Plan {
  if (last !== null && last.schema === schema && last.typeName === typeName) return last.plan;
  const made = cachedPlan(schema, typeName);
  last = { schema, typeName, plan: made };
  return made;
}

function cachedPlan(schema: z.core.$ZodType, typeName: string): Plan {
  const byName = plans.get(schema);
  const known = byName?.get(typeName);
  if (known) return known;
  const fields = planFields(schema, typeName);
  const made: Plan = { fields, configs: Object.freeze(fields.map((field) => field.config)) };
  if (byName) byName.set(typeName, made);
  else plans.set(schema, new Map([[typeName, made]]));
  return made;
}

function planFields(schema: z.core.$ZodType, typeName: string): readonly ScoredFieldPlan[] {
  if (typeof typeName !== 'string' || typeName.trim() === '') {
    throw new ScoreMappingError(
      'scores need a type name for their names ({typeName}.{field}), such as the feedback ' +
        'type registered name; got an empty one',
    );
  }
  const plan: ScoredFieldPlan[] = [];
  for (const [field, fieldSchema] of Object.entries(objectShape(schema))) {
    const reading = readField(fieldSchema);
    if (reading === null) continue;
    const config: ScoreConfig = Object.freeze({
      name: `${typeName}.${field}`,
      typeName,
      field,
      dataType: reading.dataType,
      description: reading.description,
      minimum: reading.minimum,
      maximum: reading.maximum,
      categories: Object.freeze([...reading.categories]),
    });
    plan.push(Object.freeze({ config, schema: fieldSchema }));
  }
  return Object.freeze(plan);
}

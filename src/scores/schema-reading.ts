// Reads a zod v4 schema the way the seeds' mapping reads a pydantic model: through wrappers to the
// kind of value a field holds, its declared bounds and its outermost description. Everything is
// read from `schema._zod.def` and the global registry, so zod, zod/mini and zod/v4/core schemas
// are read alike.
import { z } from 'zod';
import type { ScoreDataType } from './config.js';
import { ScoreMappingError } from './errors.js';

type Schema = z.core.$ZodType;

/** What the mapping needs to know about one field. */
export interface FieldReading {
  readonly dataType: ScoreDataType;
  readonly description: string | null;
  readonly minimum: number | null;
  readonly maximum: number | null;
  readonly categories: readonly string[];
}

/** Nesting deeper than this is a schema that refers to itself through `z.lazy`. */
const MAX_DEPTH = 64;

/** The fields of an object schema, in declaration order; `.readonly()` is looked through. */
export function objectShape(schema: unknown): Readonly<Record<string, Schema>> {
  if (!isSchema(schema)) {
    throw new ScoreMappingError('scores are read from a zod object schema, not from a value');
  }
  let node = schema;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const def = (node as z.core.$ZodTypes)._zod.def;
    if (def.type === 'object') return def.shape;
    if (def.type === 'readonly') node = def.innerType;
    else if (def.type === 'lazy') node = def.getter();
    else {
      throw new ScoreMappingError(
        `scores are read from an object schema (z.object, z.strictObject), not a ${def.type} schema`,
      );
    }
  }
  throw new ScoreMappingError('the schema refers to itself without reaching an object');
}

/** How a field is scored, or null when it cannot be judged (arrays, objects, mixed unions...). */
export function readField(field: Schema): FieldReading | null {
  let description: string | null = null;
  let node = field;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    // Wrappers are met outside in, so the first description found is the outermost one.
    description ??= ownDescription(node);
    const def = (node as z.core.$ZodTypes)._zod.def;
    if (isWrapper(def)) {
      node = def.innerType;
      continue;
    }
    switch (def.type) {
      case 'lazy':
        node = def.getter();
        continue;
      case 'union': {
        const members = def.options.filter((option) => !holdsNothing(option));
        if (members.length === 1 && members[0] !== undefined) {
          node = members[0];
          continue;
        }
        const categories = unionCategories(members);
        return categories === null ? null : categorical(categories, description);
      }
      case 'boolean':
        return { ...unbounded('BOOLEAN'), description };
      case 'literal':
      case 'enum': {
        const categories = choices(node);
        return categories === null ? null : categorical(categories, description);
      }
      case 'number':
        return { ...unbounded('NUMERIC'), ...bounds(def.checks ?? []), description };
      case 'string':
        return { ...unbounded('TEXT'), description };
      default:
        return null;
    }
  }
  return null;
}

type WrapperDef = Extract<z.core.$ZodTypes['_zod']['def'], { type: (typeof WRAPPERS)[number] }>;

/** Wrappers that change whether a value may be absent, not what kind of value it is. */
const WRAPPERS = [
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
] as const;

function isWrapper(def: z.core.$ZodTypes['_zod']['def']): def is WrapperDef {
  return (WRAPPERS as readonly string[]).includes(def.type);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function ownDescription(node: Schema): string | null {
  const description = z.globalRegistry.get(node)?.description;
  return typeof description === 'string' && description !== '' ? description : null;
}

function unbounded(dataType: ScoreDataType): Omit<FieldReading, 'description'> {
  return { dataType, minimum: null, maximum: null, categories: [] };
}

function categorical(categories: string[], description: string | null): FieldReading {
  return { ...unbounded('CATEGORICAL'), categories, description };
}

/** A union member that only admits null or undefined, which makes the union nullable. */
function holdsNothing(node: Schema): boolean {
  const def = unwrapped(node)._zod.def;
  if (def.type === 'null' || def.type === 'undefined' || def.type === 'void') return true;
  return (
    def.type === 'literal' && def.values.every((value) => value === null || value === undefined)
  );
}

/** Looks through wrappers only; used where the description no longer matters. */
function unwrapped(node: Schema): z.core.$ZodTypes {
  let current = node as z.core.$ZodTypes;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const def = current._zod.def;
    if (isWrapper(def)) current = def.innerType as z.core.$ZodTypes;
    else if (def.type === 'lazy') current = def.getter() as z.core.$ZodTypes;
    else return current;
  }
  return current;
}

/** A union whose every member is a literal or enum is categorical; any other union is not. */
function unionCategories(members: readonly Schema[]): string[] | null {
  const categories: string[] = [];
  for (const member of members) {
    const inner = unwrapped(member);
    const own =
      inner._zod.def.type === 'union'
        ? unionCategories(inner._zod.def.options.filter((option) => !holdsNothing(option)))
        : choices(inner);
    if (own === null) return null;
    categories.push(...own);
  }
  return distinct(categories);
}

/** A literal's values or an enum's values (not its keys) as strings, in declaration order. */
function choices(node: Schema): string[] | null {
  const def = (node as z.core.$ZodTypes)._zod.def;
  let values: readonly unknown[];
  if (def.type === 'literal') values = def.values;
  else if (def.type === 'enum') values = z.core.util.getEnumValues(def.entries);
  else return null;
  const categories = distinct(
    values.filter((value) => value !== null && value !== undefined).map((value) => String(value)),
  );
  return categories.length > 0 ? categories : null;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Declared bounds, kept as declared. On each side an inclusive bound wins over an exclusive one;
 * among bounds of the same kind the last declared wins. A bound that is not a finite number is
 * no bound.
 */
function bounds(checks: readonly z.core.$ZodCheck<never>[]): {
  minimum: number | null;
  maximum: number | null;
} {
  const lower = { inclusive: null as number | null, exclusive: null as number | null };
  const upper = { inclusive: null as number | null, exclusive: null as number | null };
  for (const check of checks) {
    const def = (check as z.core.$ZodChecks)._zod.def;
    if (def.check !== 'greater_than' && def.check !== 'less_than') continue;
    if (typeof def.value !== 'number' || !Number.isFinite(def.value)) continue;
    const side = def.check === 'greater_than' ? lower : upper;
    side[def.inclusive ? 'inclusive' : 'exclusive'] = def.value;
  }
  return {
    minimum: lower.inclusive ?? lower.exclusive,
    maximum: upper.inclusive ?? upper.exclusive,
  };
}

// Reads a zod v4 schema as docs/specification.md#score-mapping says: through wrappers to the
// kind of value a field holds, its declared bounds and its outermost description. Everything is
// read from `schema._zod.def` and the global registry, so zod, zod/mini and zod/v4/core schemas
// are read alike.
import { z } from 'zod';
import { ScoreMappingError, withArticle } from '../errors.js';
import { MAX_TEXT, type ScoreDataType } from '../model/score-config.js';
import { isPlainString } from './string-formats.js';

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
        `scores are read from an object schema (z.object, z.strictObject), not ${withArticle(def.type)} schema`,
      );
    }
  }
  throw new ScoreMappingError('the schema refers to itself without reaching an object');
}

/**
 * How a field is scored, or null when it cannot be judged: arrays, objects, unions of several
 * members, formatted strings, transforms and pipes that give anything but a plain string.
 */
export function readField(field: Schema): FieldReading | null {
  let description: string | null = null;
  // A pipe's input describes the field only when nothing outside it or in its output does.
  let inputDescription: string | null = null;
  let piped = false;
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
        // docs/specification.md#data-types: exactly one member that holds a value is that member.
        // Two or more are not judged, even when each is a literal or an enum
        // (`Literal["a"] | Literal["b"]`); one multi-value literal or an enum is the way to
        // declare choices.
        const members = def.options.filter((option) => !holdsNothing(option));
        const [only] = members;
        if (members.length !== 1 || only === undefined) return null;
        node = only;
        continue;
      }
      case 'pipe': {
        // Text as well (docs/specification.md#data-types): a pipe
        // from a plain string to a plain string, read by its output. `scoreValues` parses the
        // stored value (the pipe's output) through the whole pipe again, so the input must take
        // any string. A bare `.transform(f)` is skipped: nothing says what it gives, and should
        // it give a number, its string input would refuse every stored value. `.overwrite(f)`,
        // `.trim()` or a `.pipe(z.string())` after the transform keep a field text.
        const input = pipeInput(def.in);
        if (input === null) return null;
        inputDescription ??= input.description;
        piped = true;
        node = def.out;
        continue;
      }
      default: {
        const kind = readKind(def);
        if (kind === null || (piped && kind.dataType !== 'TEXT')) return null;
        return { ...kind, description: description ?? inputDescription };
      }
    }
  }
  return null;
}

/** The data type of a schema that is not a wrapper, a union or a pipe; null when unjudgeable. */
function readKind(def: z.core.$ZodTypes['_zod']['def']): Omit<FieldReading, 'description'> | null {
  switch (def.type) {
    case 'boolean':
      return unbounded('BOOLEAN');
    case 'literal':
    case 'enum': {
      const categories = choices(def);
      return categories === null ? null : { ...unbounded('CATEGORICAL'), categories };
    }
    case 'number':
      return { ...unbounded('NUMERIC'), ...bounds(def.checks ?? []) };
    case 'string':
      return isPlainString(def) ? unbounded('TEXT') : null;
    default:
      return null;
  }
}

/**
 * Whether a pipe's input takes any plain string, with its description; null when it does not.
 * A transform (`z.preprocess`) takes anything; an inner pipe takes what its own input takes.
 */
function pipeInput(node: Schema): { description: string | null } | null {
  let description: string | null = null;
  let current = node;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    description ??= ownDescription(current);
    const def = (current as z.core.$ZodTypes)._zod.def;
    if (isWrapper(def)) current = def.innerType;
    else if (def.type === 'lazy') current = def.getter();
    else if (def.type === 'pipe') current = def.in;
    else if (def.type === 'transform') return { description };
    else if (def.type === 'string') return isPlainString(def) ? { description } : null;
    else return null;
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

/** A literal's values or an enum's values (not its keys) as strings, in declaration order. */
function choices(
  def: z.core.$ZodLiteralDef<z.core.util.Literal> | z.core.$ZodEnumDef,
): string[] | null {
  const values: readonly unknown[] =
    def.type === 'literal' ? def.values : z.core.util.getEnumValues(def.entries);
  const categories = distinct(
    values.filter((value) => value !== null && value !== undefined).map((value) => String(value)),
  );
  // A score's category is cut to MAX_TEXT units, so a longer one would match no category of its
  // config, and Langfuse drops a score that fails its config without a word.
  const long = categories.find((category) => category.length > MAX_TEXT);
  if (long !== undefined) {
    throw new ScoreMappingError(
      `a category is at most ${MAX_TEXT} UTF-16 units, as a score holds it; ${JSON.stringify(`${long.slice(0, 40)}…`)} has ${long.length}`,
    );
  }
  return categories.length > 0 ? categories : null;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Declared bounds, kept as declared: `.gt(0)` is a minimum of 0, even for an int. A bound that is
 * not a finite number is no bound.
 *
 * With two bounds on one side the Python libraries keep the later one as declared; their grouped
 * forms (`Field(gt=, ge=)`, `conint`, `Interval`) always list `ge` after `gt` and `le` after `lt`:
 * hence "an Interval with both gt and ge takes ge". zod has no grouped form, so here the inclusive
 * bound wins over the exclusive one whatever the order, as it does in every grouped declaration;
 * among bounds of the same kind the last declared wins.
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

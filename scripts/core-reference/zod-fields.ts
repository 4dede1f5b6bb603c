import type { z } from 'zod';

// A zod schema as the reference writes it: each field's type in words, whether it may be left
// out, and its default. Read from the schema's own definition, so what the doc says a command
// takes is what `decide` parses.

export interface Field {
  name: string;
  type: string;
  /** `required`, `optional`, or the default written as JSON. */
  presence: string;
}

// biome-ignore lint/suspicious/noExplicitAny: zod's internal definitions are read generically
type Internal = { _zod: { def: any } };
const defOf = (schema: unknown) => (schema as Internal)._zod.def;

/** Schemas with a name of their own (the id rule, a target), written as that name. */
export type Names = ReadonlyMap<unknown, string>;

const bound = (checks: unknown[] | undefined): string => {
  const parts: string[] = [];
  for (const check of checks ?? []) {
    const def = defOf(check);
    if (def.check === 'greater_than') parts.push(`${def.inclusive ? '≥' : '>'} ${def.value}`);
    if (def.check === 'less_than') parts.push(`${def.inclusive ? '≤' : '<'} ${def.value}`);
    if (def.check === 'min_length') parts.push(`at least ${def.minimum}`);
    if (def.check === 'max_length') parts.push(`at most ${def.maximum}`);
    if (def.check === 'string_format' && def.format === 'regex')
      parts.push(`matching ${def.pattern}`);
  }
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
};

export function typeText(schema: unknown, names: Names): string {
  const named = names.get(schema);
  if (named !== undefined) return named;
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
      return typeText(def.innerType, names);
    case 'nullable':
      return `${typeText(def.innerType, names)} or null`;
    case 'literal':
      return def.values.map((value: unknown) => `\`${JSON.stringify(value)}\``).join(' or ');
    case 'enum':
      return Object.values(def.entries)
        .map((value) => `\`${String(value)}\``)
        .join(', ');
    case 'string':
      return `string${bound(def.checks)}`;
    case 'number':
      return `${def.format === 'safeint' ? 'integer' : 'number'}${bound(def.checks?.filter((c: unknown) => !['number_format'].includes(defOf(c).check)))}`;
    case 'boolean':
      return 'boolean';
    case 'array':
      return `list of ${typeText(def.element, names)}${bound(def.checks)}`;
    case 'union':
      return def.options.map((option: unknown) => typeText(option, names)).join(' or ');
    case 'object':
      return 'object';
    case 'record':
      return `object of ${typeText(def.valueType, names)}`;
    case 'unknown':
      return 'any';
    default:
      throw new Error(`the reference cannot write a zod ${def.type} yet`);
  }
}

function presenceOf(schema: unknown): string {
  const def = defOf(schema);
  if (def.type === 'optional') return 'optional';
  if (def.type === 'default') {
    const value = typeof def.defaultValue === 'function' ? def.defaultValue() : def.defaultValue;
    return `\`${JSON.stringify(value)}\``;
  }
  return 'required';
}

/** The fields of a zod object, in the schema's order. */
export function fieldsOf(schema: z.ZodObject, names: Names): Field[] {
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    type: typeText(field, names),
    presence: presenceOf(field),
  }));
}

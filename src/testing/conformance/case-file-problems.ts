import type { z } from 'zod';

// A zod error on a case file, as one line a person can act on: where (the case by number and
// name, then the field's path) and what (in words, with the value found). Only the first issue
// is spelled out; the rest are counted, since fixing one often fixes the next.

type Issue = z.core.$ZodIssue;
type Path = readonly PropertyKey[];

/** The first problem of `error` on `raw` (the parsed JSON), as one line. */
export function describeCaseFileProblem(error: z.ZodError, raw: unknown): string {
  const [first, ...rest] = error.issues;
  if (first === undefined) return 'not a case file';
  const more =
    rest.length === 0
      ? ''
      : ` (and ${rest.length} more ${rest.length === 1 ? 'problem' : 'problems'})`;
  return `${where(first.path, raw)}${what(first, valueAt(raw, first.path))}${more}`;
}

function where(path: Path, raw: unknown): string {
  const [head, index, ...inCase] = path;
  if (head === 'cases' && typeof index === 'number') {
    const name = valueAt(raw, ['cases', index, 'name']);
    const label = typeof name === 'string' ? ` (${JSON.stringify(name)})` : '';
    return `case ${index + 1}${label}: ${fieldPath(inCase)}`;
  }
  return `not a case file: ${fieldPath(path)}`;
}

/** `expect.events[0].type: `, or nothing when the problem is the whole value. */
function fieldPath(path: Path): string {
  const text = path
    .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
    .join('')
    .replace(/^\./, '');
  return text === '' ? '' : `${text}: `;
}

function what(issue: Issue, found: unknown): string {
  switch (issue.code) {
    case 'invalid_type':
      return found === undefined
        ? `missing (expected ${typeName(issue.expected)})`
        : `expected ${typeName(issue.expected)}, got ${shown(found)}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${quoted(issue.keys)}`;
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? '' : 'one of '}${quoted(issue.values)}, got ${shown(found)}`;
    case 'invalid_union':
      // A discriminated union (an actor's or target's `kind`) names its options.
      return 'options' in issue && Array.isArray(issue.options)
        ? `expected one of ${quoted(issue.options)}, got ${shown(found)}`
        : `${shown(found)} matches none of the forms allowed here`;
    case 'too_small':
      return issue.origin === 'array'
        ? `needs at least ${issue.minimum} ${Number(issue.minimum) === 1 ? 'item' : 'items'}`
        : `expected at least ${issue.minimum}${issue.inclusive ? '' : ' (exclusive)'}, got ${shown(found)}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `takes at most ${issue.maximum} ${Number(issue.maximum) === 1 ? 'item' : 'items'}`
        : `expected at most ${issue.maximum}${issue.inclusive ? '' : ' (exclusive)'}, got ${shown(found)}`;
    default:
      return issue.message;
  }
}

/** zod's type names, in the words the case format uses. */
const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'a list',
};

function typeName(expected: string): string {
  return typeNames[expected] ?? expected;
}

function valueAt(raw: unknown, path: Path): unknown {
  let value = raw;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function quoted(values: readonly unknown[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}

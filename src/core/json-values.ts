import { z } from 'zod';
import { isWellFormed, kindOf } from './ids.js';

// The free-form fields (an artifact's data, a feedback value) are stored and sent as JSON, so
// they must be JSON: a BigInt or a cycle would throw when serialized, NaN, a Date or an array's
// `undefined` would silently come back as something else, and a lone surrogate would not
// survive every reader. An object property holding `undefined` counts as absent, as in JSON.

export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** How deeply JSON values may nest: serializing much deeper overflows the stack. */
export const JSON_MAX_DEPTH = 64;

/** What makes a value not JSON, with where (`$.a[2]`), or null when it is JSON. */
export function jsonProblem(value: unknown): string | null {
  return problemAt(value, '$', 0, new Set());
}

function problemAt(value: unknown, path: string, depth: number, open: Set<object>): string | null {
  switch (typeof value) {
    case 'string':
      return isWellFormed(value) ? null : `${path}: a string that is not well-formed Unicode`;
    case 'number':
      return Number.isFinite(value) ? null : `${path}: ${value} is not a JSON number`;
    case 'boolean':
      return null;
    case 'object':
      break;
    default:
      return `${path}: ${kindOf(value)} is not a JSON value`;
  }
  if (value === null) return null;
  if (depth >= JSON_MAX_DEPTH) return `${path}: nested deeper than ${JSON_MAX_DEPTH} levels`;
  if (open.has(value)) return `${path}: a circular reference`;
  open.add(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (item === undefined) return `${path}[${i}]: undefined is not a JSON value`;
        const problem = problemAt(item, `${path}[${i}]`, depth + 1, open);
        if (problem !== null) return problem;
      }
      return null;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      const name = (prototype as { constructor?: { name?: unknown } }).constructor?.name;
      return `${path}: a ${typeof name === 'string' && name !== '' ? name : 'class instance'} is not a JSON object`;
    }
    for (const [key, item] of Object.entries(value)) {
      const at = `${path}.${key}`;
      if (!isWellFormed(key)) return `${path}: a key that is not well-formed Unicode`;
      if (item === undefined) continue;
      const problem = problemAt(item, at, depth + 1, open);
      if (problem !== null) return problem;
    }
    return null;
  } finally {
    open.delete(value);
  }
}

/**
 * A JSON value (see `jsonProblem`), refused with the problem and where it is. Typed `unknown`,
 * so a caller's `Record<string, unknown>` needs no cast; the check is at run time.
 */
export const Json = z.custom<unknown>((value) => jsonProblem(value) === null, {
  error: (issue) => `not JSON: ${jsonProblem(issue.input) ?? 'not a JSON value'}`,
});

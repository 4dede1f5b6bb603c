// A scored field's schema compiled once into a check that proves, without zod's parse, that a
// value conforms: each node's kind test, bounds, number formats, refinements and overwrites are
// inlined; its other checks (lengths, string formats) are zod's own check objects and a transform
// zod's own node, each run on a payload of our own. The check never rejects: where it cannot
// prove a value (a failing one, or a node it does not know, such as a coercion) it says so, and
// the caller parses with zod, so every error, transform and default stays exactly zod's.
// Compiled once per schema object.
import { z } from 'zod';

type Schema = z.core.$ZodType;
type Def = z.core.$ZodTypes['_zod']['def'];

/** What a check gives for a value it cannot prove. */
export const NOT_PROVEN: unique symbol = Symbol('not proven');

/**
 * zod's output for a value that is not undefined or null, or NOT_PROVEN. scoreValues never checks
 * those, and no check passes them on, so `optional`, `nullable` and `default` are looked through.
 */
export type FieldCheck = (raw: unknown) => unknown;

interface Compiled {
  readonly check: FieldCheck;
  /**
   * NOT_PROVEN means zod rejects, and a value is zod's output: a union may then try its next
   * member. Exact checks give the value itself.
   */
  readonly exact: boolean;
}

/** Nesting deeper than this is a schema that refers to itself through `z.lazy`. */
const MAX_DEPTH = 64;

const compiled = new WeakMap<Schema, FieldCheck | null>();

/** The schema's check, compiled on first use; null when it has a node the compiler does not know. */
export function compiledCheck(schema: Schema): FieldCheck | null {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema, 0)?.check ?? null;
    compiled.set(schema, check);
  }
  return check;
}

function compile(node: Schema, depth: number): Compiled | null {
  if (depth > MAX_DEPTH) return null;
  const own = compileNode(node, depth);
  if (own === null) return null;
  const def = node._zod.def as Def;
  // A check schema (z.int(), z.email()) runs itself as its first check, as zod's parse does.
  const checks = node._zod.traits.has('$ZodCheck')
    ? [node as unknown as z.core.$ZodCheck, ...(def.checks ?? [])]
    : (def.checks ?? []);
  return checks.length === 0 ? own : withChecks(own, checks);
}

/** The node's checks, run in order after its kind test, as zod runs them on a valid value. */
function withChecks(own: Compiled, checks: readonly z.core.$ZodCheck[]): Compiled {
  const steps = checks.map((check) => inlineStep(check._zod.def) ?? zodStep(check._zod));
  const exact = checks.every((check) => isPure(check._zod.def));
  return {
    exact: own.exact && exact,
    check: (raw) => {
      let value = own.check(raw);
      for (let i = 0; i < steps.length && value !== NOT_PROVEN; i++) {
        value = (steps[i] as FieldCheck)(value);
      }
      return value;
    },
  };
}

/** Check kinds that only read the value: a failure is zod's rejection, with no user code run. */
const PURE_CHECKS: ReadonlySet<string> = new Set([
  'greater_than',
  'less_than',
  'multiple_of',
  'number_format',
  'max_length',
  'min_length',
  'length_equals',
  'string_format',
]);

const isPure = (def: z.core.$ZodCheckDef) => PURE_CHECKS.has(def.check) && def.when === undefined;

/**
 * A bound or a number format on a number, a refinement or an overwrite, as zod's check runs it;
 * null for any other check.
 */
function inlineStep(def: z.core.$ZodCheckDef): FieldCheck | null {
  if (def.when !== undefined) return null;
  if (def.check === 'custom') return refinement(def as z.core.$ZodCustomDef);
  const known = def as z.core.$ZodChecks['_zod']['def'];
  switch (known.check) {
    case 'greater_than': {
      const { value: bound, inclusive } = known;
      if (typeof bound !== 'number') return null;
      return inclusive
        ? (value) => ((value as number) >= bound ? value : NOT_PROVEN)
        : (value) => ((value as number) > bound ? value : NOT_PROVEN);
    }
    case 'less_than': {
      const { value: bound, inclusive } = known;
      if (typeof bound !== 'number') return null;
      return inclusive
        ? (value) => ((value as number) <= bound ? value : NOT_PROVEN)
        : (value) => ((value as number) < bound ? value : NOT_PROVEN);
    }
    case 'number_format': {
      const [minimum, maximum] = z.core.util.NUMBER_FORMAT_RANGES[known.format];
      const integer = known.format.includes('int');
      return (value) =>
        typeof value === 'number' &&
        (!integer || Number.isSafeInteger(value)) &&
        value >= minimum &&
        value <= maximum
          ? value
          : NOT_PROVEN;
    }
    case 'overwrite': {
      const { tx } = known;
      return (value) => userCode(() => tx(value as never));
    }
    default:
      return null;
  }
}

/** A `.refine(fn)`: zod reports an issue when `fn` gives a falsy answer. */
function refinement(def: z.core.$ZodCustomDef): FieldCheck | null {
  // `superRefine` and `check` make a custom check of their own, without `fn`.
  if (def.type !== 'custom' || typeof def.fn !== 'function') return null;
  const fn = def.fn;
  return (value) => {
    const answer = userCode(() => fn(value as never));
    if (answer instanceof Promise) {
      answer.catch(() => {}); // zod's own parse reports it
      return NOT_PROVEN;
    }
    return answer !== NOT_PROVEN && answer ? value : NOT_PROVEN;
  };
}

/** What a user's function gives, or NOT_PROVEN when it throws (zod's parse then throws it). */
function userCode(run: () => unknown): unknown {
  try {
    return run();
  } catch {
    return NOT_PROVEN;
  }
}

/** zod's own check on a payload of ours: its output, or NOT_PROVEN on an issue. */
function zodStep(check: z.core.$ZodCheckInternals<never>): FieldCheck {
  return (value) => {
    const payload: z.core.ParsePayload = { value, issues: [] };
    const when = check.def.when;
    if (when !== undefined && !when(payload)) return value;
    return ranClean(check, payload) ? payload.value : NOT_PROVEN;
  };
}

/** Whether a check ran to its end without an issue; a throw or a promise is left to zod. */
function ranClean(check: z.core.$ZodCheckInternals<never>, payload: z.core.ParsePayload) {
  try {
    const result: unknown = check.check(payload as z.core.ParsePayload<never>);
    if (result instanceof Promise) {
      result.catch(() => {}); // zod's own parse reports it
      return false;
    }
  } catch {
    return false;
  }
  return payload.issues.length === 0;
}

function compileNode(node: Schema, depth: number): Compiled | null {
  const def = node._zod.def as Def;
  switch (def.type) {
    case 'boolean':
      return def.coerce ? null : exact((raw) => (typeof raw === 'boolean' ? raw : NOT_PROVEN));
    case 'number':
      return def.coerce ? null : exact((raw) => (Number.isFinite(raw) ? raw : NOT_PROVEN));
    case 'string':
      return def.coerce ? null : exact((raw) => (typeof raw === 'string' ? raw : NOT_PROVEN));
    case 'literal':
      return member(new Set<unknown>(def.values));
    case 'enum':
      return member(new Set<unknown>(z.core.util.getEnumValues(def.entries)));
    case 'null':
      return exact((raw) => (raw === null ? raw : NOT_PROVEN));
    case 'undefined':
    case 'void':
      return exact((raw) => (raw === undefined ? raw : NOT_PROVEN));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
      return passedThrough(def.innerType, depth);
    case 'readonly':
      return frozen(def.innerType, depth);
    case 'catch': {
      // A value the inner type rejects becomes the catch value: not proven, and not a rejection.
      const inner = compile(def.innerType, depth + 1);
      return inner === null ? null : { check: inner.check, exact: false };
    }
    case 'lazy':
      return compile(def.getter(), depth + 1);
    case 'pipe':
      return piped(def.in, def.out, depth);
    case 'union':
      return 'discriminator' in def || def.inclusive === false ? null : union(def.options, depth);
    case 'transform':
      return zodNode(node);
    default:
      return null;
  }
}

/**
 * A node run by zod itself (its output is user code's, as a transform's), on a payload of ours:
 * not exact, since the code may throw where zod would report.
 */
function zodNode(node: Schema): Compiled {
  const zod = node._zod;
  const ctx: z.core.ParseContextInternal = { async: false };
  return {
    exact: false,
    check: (raw) => {
      try {
        const result = zod.run({ value: raw, issues: [] }, ctx);
        return result instanceof Promise || result.issues.length > 0 ? NOT_PROVEN : result.value;
      } catch {
        return NOT_PROVEN;
      }
    },
  };
}

function exact(check: FieldCheck): Compiled {
  return { exact: true, check };
}

function member(values: ReadonlySet<unknown>): Compiled {
  return exact((raw) => (values.has(raw) ? raw : NOT_PROVEN));
}

/**
 * A wrapper that passes a value which is not undefined or null (all a check is given) on to its
 * inner type. An exact inner type gives the value itself; another may give undefined, which
 * `default` and `nonoptional` would not let through as it is.
 */
function passedThrough(inner: Schema, depth: number): Compiled | null {
  const compiledInner = compile(inner, depth + 1);
  if (compiledInner === null || compiledInner.exact) return compiledInner;
  const check = compiledInner.check;
  return {
    exact: false,
    check: (raw) => {
      const value = check(raw);
      return value === undefined ? NOT_PROVEN : value;
    },
  };
}

/** zod freezes the output: the same value only when it is not an object. */
function frozen(inner: Schema, depth: number): Compiled | null {
  const compiledInner = passedThrough(inner, depth);
  if (compiledInner === null) return null;
  const check = compiledInner.check;
  return {
    exact: compiledInner.exact,
    check: (raw) => {
      const value = check(raw);
      return typeof value === 'object' || typeof value === 'function' ? NOT_PROVEN : value;
    },
  };
}

function piped(input: Schema, output: Schema, depth: number): Compiled | null {
  const first = compile(input, depth + 1);
  const second = compile(output, depth + 1);
  if (first === null || second === null) return null;
  return {
    exact: first.exact && second.exact,
    check: (raw) => {
      const value = first.check(raw);
      // A check is never given undefined or null (scoreValues skips them).
      return value === NOT_PROVEN || value === undefined || value === null
        ? NOT_PROVEN
        : second.check(value);
    },
  };
}

/**
 * zod's union gives the first member that accepts the value. A member's output is ours once every
 * member before it is known to reject the value, so an inexact member ends the search.
 */
function union(options: readonly Schema[], depth: number): Compiled | null {
  const members = options.map((option) => compile(option, depth + 1));
  if (members.some((m) => m === null)) return null;
  const known = members as Compiled[];
  return {
    exact: known.every((m) => m.exact),
    check: (raw) => {
      for (const { check, exact } of known) {
        const value = check(raw);
        if (value !== NOT_PROVEN) return value;
        if (!exact) return NOT_PROVEN;
      }
      return NOT_PROVEN;
    },
  };
}

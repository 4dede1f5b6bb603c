import fc from 'fast-check';
import type { z } from 'zod';
import { Command, Target } from '../../src/core/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';

// Commands generated from the core's own zod schemas, with ids drawn from small pools so that
// generated commands meet each other's entities, then mutated into every kind of bad input.

const pools: Record<string, readonly string[]> = {
  thread_id: ['t1', 't2', 't/3'],
  run_id: Array.from({ length: 12 }, (_, i) => `r${i}`),
  message_id: ['m1', 'm2', 'm@3', 'm4', 'm5', 'm6'],
  artifact_id: ['a1', 'a:2', 'a3', 'a4', 'a5'],
  feedback_type: ['helpfulness', 'accuracy', 'review', 'escalation', 'nope'],
  kind: ['report', 'image'],
  trace_id: ['tr-1', 'tr-2'],
  command_id: Array.from({ length: 500 }, (_, i) => `c${i}`),
  source_label: ['nightly', 'provider:x'],
  // Reported times: mostly after the generated envelopes' ts (2026-01-01T00:00), one long before.
  ...Object.fromEntries(
    ['started_at', 'ended_at', 'posted_at'].map((key) => [
      key,
      ['2026-01-01T00:01:00Z', '2026-01-01T01:00:00+01:00', '2020-01-01T00:00:00Z'],
    ]),
  ),
};

const feedbackTypes = conformanceFeedbackTypes();

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string>;
  values?: unknown[];
  format?: string;
  checks?: { _zod: { def: { check: string; value: number; inclusive: boolean } } }[];
};

/** An arbitrary of the values a zod schema accepts (for the kinds of schema the core uses). */
export function arbitraryOf(schema: z.ZodType, key?: string): fc.Arbitrary<unknown> {
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'object': {
      const shape = def.shape ?? {};
      const required = Object.entries(shape)
        .filter(([, field]) => !['optional', 'default'].includes(field._zod.def.type))
        .map(([k]) => k);
      const parts = Object.fromEntries(
        Object.entries(shape).map(([k, v]) => [k, arbitraryOf(v, k)]),
      );
      return fc.record(parts, { requiredKeys: required });
    }
    case 'optional':
    case 'default':
      return arbitraryOf(def.innerType as z.ZodType, key);
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType as z.ZodType, key), { nil: null, freq: 4 });
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => arbitraryOf(option, key)));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'boolean':
      return fc.boolean();
    case 'number': {
      let min = -10;
      let max = 10;
      for (const check of def.checks ?? []) {
        if (check._zod.def.check === 'greater_than') min = check._zod.def.value;
        if (check._zod.def.check === 'less_than') max = check._zod.def.value;
      }
      // Mostly within the declared bounds, sometimes just outside them.
      const within =
        def.format === 'safeint' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
      return fc.oneof(
        { weight: 9, arbitrary: within },
        { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1) },
      );
    }
    case 'string': {
      const pool = key === undefined ? undefined : pools[key];
      return pool ? fc.constantFrom(...pool) : fc.string({ maxLength: 8 });
    }
    case 'unknown':
      return key === 'value' ? feedbackValue : fc.jsonValue({ maxDepth: 2 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const feedbackValue = fc.oneof(
  ...feedbackTypes.list().map((type) => arbitraryOf(type.schema)),
  fc.jsonValue({ maxDepth: 2 }),
);

/**
 * Feedback that fits its type (a declared target kind and a value from the type's schema), its
 * withdrawal, and message ratings.
 */
const coherentFeedback = fc.oneof(
  ...feedbackTypes.list().map((type) =>
    fc.record({
      type: fc.constant('give_feedback'),
      feedback_type: fc.constant(type.name),
      target: fc.oneof(
        ...type.targets.map((kind) =>
          arbitraryOf(Target.options.find((t) => t.shape.kind.value === kind) as z.ZodType),
        ),
      ),
      value: arbitraryOf(type.schema),
    }),
  ),
  ...feedbackTypes.list().map((type) =>
    fc.record({
      type: fc.constant('withdraw_feedback'),
      feedback_type: fc.constant(type.name),
      target: fc.oneof(
        ...type.targets.map((kind) =>
          arbitraryOf(Target.options.find((t) => t.shape.kind.value === kind) as z.ZodType),
        ),
      ),
    }),
  ),
  fc.record({
    type: fc.constant('rate_message'),
    thread_id: fc.constantFrom(...(pools.thread_id ?? [])),
    message_id: fc.constantFrom(...(pools.message_id ?? [])),
    feedback_type: fc.constant('helpfulness'),
    value: arbitraryOf(feedbackTypes.get('helpfulness')?.schema as z.ZodType),
  }),
);

/**
 * Valid commands, half of them feedback that fits its type. Rarely a declared source (most claims
 * are refused) or a command id (from 500, so ids are seldom reused by chance).
 */
export const validCommand = fc
  .tuple(
    fc.oneof(arbitraryOf(Command), coherentFeedback) as fc.Arbitrary<Record<string, unknown>>,
    fc.nat(19),
  )
  .map(([command, dice]): Record<string, unknown> => {
    const { command_id, source, ...rest } = command;
    return {
      ...rest,
      ...(dice === 0 && command_id !== undefined ? { command_id } : {}),
      ...(dice < 4 && source !== undefined ? { source } : {}),
    };
  });

/**
 * Anything at all, values JSON has not included (BigInt, Date, Map, Set, sparse and typed arrays,
 * boxed values, objects without a prototype) and strings of any UTF-16 units, lone surrogates
 * included.
 */
const anything = fc.anything({
  maxDepth: 2,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withSet: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
});

/** A command damaged one way: a key dropped or added, a value or the type swapped, or noise. */
const mutated: fc.Arbitrary<unknown> = fc.oneof(
  validCommand.chain((command) =>
    fc.constantFrom(...Object.keys(command)).map((dropped) => {
      const { [dropped]: _gone, ...rest } = command;
      return rest;
    }),
  ),
  fc
    .tuple(validCommand, fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }))
    .map(([command, key, value]) => ({ ...command, [key]: value })),
  fc
    .tuple(validCommand, validCommand)
    .map(([command, other]) => ({ ...command, type: other.type })),
  fc
    .tuple(validCommand, anything)
    .chain(([command, value]) =>
      fc.constantFrom(...Object.keys(command)).map((key) => ({ ...command, [key]: value })),
    ),
  anything,
);

const weighted = (weight: number, value: unknown) => ({ weight, arbitrary: fc.constant(value) });

/** Mostly the system and the agents, so entities build up for feedback to meet. */
export const actor: fc.Arbitrary<unknown> = fc.oneof(
  weighted(6, { kind: 'system', name: 'system' }),
  weighted(3, { kind: 'agent', thread_id: 't1' }),
  weighted(2, { kind: 'agent', thread_id: 't/3' }),
  weighted(3, { kind: 'user', id: 'u1' }),
  weighted(2, { kind: 'user', id: 'u2', name: 'Ann' }),
  weighted(1, { kind: 'evaluator', name: 'tone', version: '1' }),
  weighted(1, { kind: 'evaluator', name: 'tone', version: '2' }),
  weighted(2, { kind: 'reviewer', id: 'rv1' }),
  weighted(1, { kind: 'reviewer', id: 'rv2', name: 'Bo' }),
  { weight: 1, arbitrary: anything },
);

/** Mostly valid commands (so entities build up), the rest mutated. */
export const commandStep = fc.record({
  actor,
  command: fc.oneof({ weight: 3, arbitrary: validCommand }, { weight: 1, arbitrary: mutated }),
});

/** A fixed, reproducible sample of steps. */
export const sampleSteps = (count: number, seed = 4040) =>
  fc.sample(commandStep, { numRuns: count, seed });

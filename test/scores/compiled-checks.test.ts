// The compiled checks against zod itself, over many seeded schemas of every kind a scored field
// can be (and some it cannot) and many valid and invalid values: a compiled check proves only
// what zod accepts, with zod's output, and scoreValues gives exactly what parsing each field with
// zod gives, scores and errors alike.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldPlans } from '../../src/scores/configs/schema-configs.js';
import { type ScoredValue, scoreValues } from '../../src/scores/index.js';
import { compiledCheck, NOT_PROVEN } from '../../src/scores/values/compiled-checks.js';
import { parsedAlone } from '../../src/scores/values/field-checks.js';
import { isEmpty, toScoreValue } from '../../src/scores/values/score-values.js';

type Random = () => number;

/** mulberry32: the same schemas and values on every run. */
function seeded(seed: number): Random {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;

const VALUES: readonly unknown[] = [
  true,
  false,
  0,
  -0,
  1,
  2,
  2.5,
  -3,
  7,
  100,
  1e20,
  2 ** 53,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  'a',
  'b',
  'x',
  'ab',
  'abc',
  ' a ',
  'ABC',
  'hello world',
  'bad',
  'boom',
  '',
  'a@b.co',
  '0d5f4a2e-3b1c-4e8f-9a7b-1c2d3e4f5a6b',
  '2026-01-01T00:00:00Z',
  'x'.repeat(600),
  null,
  undefined,
  [],
  {},
  [1],
  1n,
];

const numberChecks: readonly ((s: z.ZodNumber) => z.ZodNumber)[] = [
  (s) => s.int(),
  (s) => s.gt(0),
  (s) => s.gte(1),
  (s) => s.lt(7),
  (s) => s.lte(2.5),
  (s) => s.multipleOf(0.5),
  (s) => s.positive(),
  (s) => s.nonnegative(),
  (s) => s.max(10, { abort: true }),
];

const stringChecks: readonly ((s: z.ZodString) => z.ZodString)[] = [
  (s) => s.min(2),
  (s) => s.max(3),
  (s) => s.length(3),
  (s) => s.regex(/^[a-z ]*$/),
  (s) => s.regex(/a/g), // a global pattern keeps a lastIndex between tests
  (s) => s.startsWith('a'),
  (s) => s.includes('b'),
  (s) => s.lowercase(),
  (s) => s.trim(),
  (s) => s.toLowerCase(),
  (s) => s.toUpperCase(),
];

function leaf(random: Random): z.ZodType {
  switch (Math.floor(random() * 12)) {
    case 0:
      return z.boolean();
    case 1: {
      let schema = z.number();
      for (let i = Math.floor(random() * 3); i > 0; i--)
        schema = pick(random, numberChecks)(schema);
      return schema;
    }
    case 2:
      return pick(random, [z.int(), z.int32(), z.uint32(), z.float32(), z.int().min(1).max(5)]);
    case 3: {
      let schema = z.string();
      for (let i = Math.floor(random() * 3); i > 0; i--)
        schema = pick(random, stringChecks)(schema);
      return schema;
    }
    case 4:
      return pick(random, [
        z.literal('a'),
        z.literal(1),
        z.literal(true),
        z.literal(['a', 'b', 2]),
      ]);
    case 5:
      return pick(random, [z.enum(['a', 'b', 'abc']), z.enum({ One: 'x', Two: 'ab' })]);
    case 6:
      return pick(random, [z.email(), z.uuid(), z.iso.datetime(), z.string().email()]);
    case 7:
      return pick(random, [z.coerce.number(), z.coerce.string(), z.coerce.boolean()]);
    case 8:
      return pick(random, [z.null(), z.undefined(), z.void()]);
    case 9:
      return refined(random, pick(random, [z.string(), z.number()]) as z.ZodType);
    case 10:
      return transformed(random);
    default:
      return z.string().pipe(z.string().min(2));
  }
}

/** Refinements that pass, fail, throw, answer a promise or add their own issues. */
function refined(random: Random, schema: z.ZodType): z.ZodType {
  const text = (value: unknown) => String(value);
  switch (Math.floor(random() * 6)) {
    case 0:
      return schema.refine((value) => text(value).length % 2 === 0, 'even length');
    case 1:
      return schema.refine((value) => (text(value).includes('a') ? 'yes' : 0));
    case 2:
      return schema.refine((value) => {
        if (value === 'boom') throw new Error('the refinement threw');
        return true;
      });
    case 3:
      return schema.refine(async () => true);
    case 4:
      return schema.superRefine((value, ctx) => {
        if (value === 'bad' || value === 7) ctx.addIssue({ code: 'custom', message: 'bad' });
      });
    default:
      return schema.refine((value) => value !== 2, { abort: true });
  }
}

function transformed(random: Random): z.ZodType {
  switch (Math.floor(random() * 4)) {
    case 0:
      return z
        .string()
        .transform((text) => text.toUpperCase())
        .pipe(z.string());
    case 1:
      return z
        .string()
        .transform((text, ctx) => {
          if (text === 'bad') ctx.addIssue({ code: 'custom', message: 'bad text' });
          return `${text}!`;
        })
        .pipe(z.string().max(4));
    case 2:
      return z.string().transform((text) => text.length);
    default:
      return z.string().overwrite((text) => text.trim());
  }
}

/** A field's schema: a leaf in up to three wrappers, unions, pipes or refinements. */
function fieldSchema(random: Random, depth = 0): z.ZodType {
  const inner = depth < 3 && random() < 0.6 ? fieldSchema(random, depth + 1) : leaf(random);
  switch (Math.floor(random() * 14)) {
    case 0:
      return inner.optional();
    case 1:
      return inner.nullable();
    case 2:
      return inner.default(pick(random, ['a', 1, true]) as never);
    case 3:
      return inner.prefault(pick(random, ['ab', 2]) as never);
    case 4:
      return inner.catch(pick(random, ['caught', 5, '']) as never);
    case 5:
      return inner.readonly();
    case 6:
      return inner.optional().nonoptional();
    case 7:
      return z.lazy(() => inner);
    case 8:
      return z.union([inner, z.null()]);
    case 9:
      return z.union([z.null(), inner]);
    case 10:
      return z.union([inner, leaf(random)]);
    case 11:
      return refined(random, inner);
    case 12:
      return inner.pipe(leaf(random));
    default:
      return inner;
  }
}

/** scoreValues as it was before compiled checks: every present field parsed alone by zod. */
function zodScoreValues(schema: z.ZodType, value: Record<string, unknown>, typeName: string) {
  const scored: ScoredValue[] = [];
  for (const plan of fieldPlans(schema, { typeName })) {
    const raw = value[plan.config.field];
    if (isEmpty(raw) || !Object.hasOwn(value, plan.config.field)) continue;
    const parsed = parsedAlone(plan, raw);
    if (isEmpty(parsed)) continue;
    scored.push({ config: plan.config, value: toScoreValue(plan.config, parsed) });
  }
  return scored;
}

function outcome(map: () => ScoredValue[]) {
  try {
    return { scores: map().map(({ config, value }) => [config.name, value]) };
  } catch (error) {
    const { name, message, field, problems } = error as Error & {
      field?: unknown;
      problems?: unknown;
    };
    return { error: { type: (error as object).constructor.name, name, message, field, problems } };
  }
}

function settled(run: () => unknown) {
  try {
    return { ok: run() };
  } catch (error) {
    return { threw: (error as object).constructor.name };
  }
}

describe('compiled checks', () => {
  it('prove only values zod accepts, with the output zod gives', () => {
    const random = seeded(35);
    let accepted = 0;
    let proven = 0;
    for (let s = 0; s < 3000; s++) {
      const schema = fieldSchema(random);
      const check = compiledCheck(schema);
      for (const value of VALUES) {
        if (value === undefined || value === null) continue; // scoreValues never checks those
        const zod = settled(() => z.safeParse(schema, value));
        const parsed = 'ok' in zod ? (zod.ok as z.ZodSafeParseResult<unknown>) : null;
        if (parsed?.success) accepted++;
        const result = check === null ? NOT_PROVEN : check(value);
        if (result === NOT_PROVEN) continue;
        proven++;
        // A proof zod does not share fails here, naming the schema and the value.
        expect({ schema: schema._zod.def.type, value, zod: parsed?.success }).toEqual({
          schema: schema._zod.def.type,
          value,
          zod: true,
        });
        expect(Object.is(parsed?.data, result)).toBe(true);
      }
    }
    // Most values zod accepts are proven without it, so the comparison above means something.
    expect(proven / accepted).toBeGreaterThan(0.4);
  });

  it('give scoreValues the scores and errors of parsing each field with zod', () => {
    const random = seeded(2026);
    let scores = 0;
    let errors = 0;
    for (let d = 0; d < 1500; d++) {
      const shape: Record<string, z.ZodType> = {};
      const size = 1 + Math.floor(random() * 6);
      for (let f = 0; f < size; f++) shape[`f${f}`] = fieldSchema(random);
      const schema = z.object(shape);
      for (let v = 0; v < 20; v++) {
        const value: Record<string, unknown> = {};
        for (let f = 0; f < size; f++) if (random() < 0.9) value[`f${f}`] = pick(random, VALUES);
        const compiled = outcome(() => scoreValues(schema, value, { typeName: 't' }));
        const zodOnly = outcome(() => zodScoreValues(schema, value, 't'));
        expect(compiled).toEqual(zodOnly);
        if ('error' in compiled) errors++;
        else scores += compiled.scores.length;
      }
    }
    expect(scores).toBeGreaterThan(1000);
    expect(errors).toBeGreaterThan(1000);
  });

  it('compile a schema once, however many values it checks', () => {
    const rating = z.int().min(1).max(5);
    const Review = z.object({ rating, helpful: z.boolean() });
    const def = rating._zod.def;
    let reads = 0;
    Object.defineProperty(rating._zod, 'def', {
      configurable: true,
      get: () => {
        reads++;
        return def;
      },
    });
    const check = compiledCheck(rating);
    const compiled = reads;
    expect(compiled).toBeGreaterThan(0);
    expect(compiledCheck(rating)).toBe(check);
    expect(reads).toBe(compiled);

    const review = (i: number) => ({ rating: 1 + (i % 5), helpful: i % 2 === 0 });
    expect(scoreValues(Review, review(0), { typeName: 'review' })).toHaveLength(2);
    const planned = reads; // the type's scoring plan read the field once
    for (let i = 1; i < 1000; i++) {
      expect(scoreValues(Review, review(i), { typeName: 'review' })).toHaveLength(2);
    }
    expect(reads).toBe(planned);
  });
});

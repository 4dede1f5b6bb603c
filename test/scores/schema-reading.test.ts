// How a field's schema is read, for the rules field-kinds.test.ts leaves unpinned: which union
// members count as "nothing", what a pipe's input may be wrapped in, `multipleOf`, and schemas
// that refer to themselves through z.lazy (read to a fixed depth, never forever).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ScoreConfig, ScoreMappingError, scoreConfigs } from '../../src/scores/index.js';

function configOf(field: z.core.$ZodType): ScoreConfig | null {
  return scoreConfigs(z.object({ field }), { typeName: 't' })[0] ?? null;
}
const dataTypeOf = (field: z.core.$ZodType) => configOf(field)?.dataType ?? 'skipped';

/** A schema whose only content is itself. */
const selfReferring = (): z.ZodType => {
  const self: z.ZodType = z.lazy(() => self);
  return self;
};

describe('union members that hold nothing', () => {
  it.each([
    ['void', z.union([z.string(), z.void()])],
    ['a null literal', z.union([z.number(), z.literal(null)])],
    ['an undefined literal', z.union([z.number(), z.literal(undefined)])],
    ['a literal of null and undefined', z.union([z.number(), z.literal([null, undefined])])],
    ['an optional null', z.union([z.string(), z.null().optional()])],
    ['a lazy null', z.union([z.string(), z.lazy(() => z.null())])],
  ])('make the union nullable: %s', (_, field) => {
    expect(dataTypeOf(field)).not.toBe('skipped');
  });

  it('do not include a literal that also holds a value', () => {
    expect(dataTypeOf(z.union([z.number(), z.literal([null, 'a'])]))).toBe('skipped');
  });

  it('do not include a member that refers only to itself', () => {
    expect(dataTypeOf(z.union([z.string(), selfReferring()]))).toBe('skipped');
  });
});

describe("a pipe's input", () => {
  it.each([
    ['an optional string', z.string().optional().pipe(z.string().optional())],
    ['a lazy string', z.lazy(() => z.string()).pipe(z.string())],
  ])('is read through wrappers and lazies: %s', (_, field) => {
    expect(dataTypeOf(field)).toBe('TEXT');
  });

  it('gives no description when a transform and its output have none', () => {
    const field = z.preprocess((value) => String(value), z.string());
    expect(configOf(field)).toMatchObject({ dataType: 'TEXT', description: null });
  });

  it('that refers only to itself skips the field', () => {
    expect(dataTypeOf(selfReferring().pipe(z.string()))).toBe('skipped');
  });
});

describe('literal categories', () => {
  it('leave out null and undefined among the values', () => {
    expect(configOf(z.literal(['a', undefined, 'b', null]))?.categories).toEqual(['a', 'b']);
  });
});

describe('bounds', () => {
  it('are not read from multipleOf', () => {
    expect(configOf(z.number().multipleOf(5))).toMatchObject({ minimum: null, maximum: null });
    expect(configOf(z.int().min(0).multipleOf(5).max(100))).toMatchObject({
      minimum: 0,
      maximum: 100,
    });
  });
});

describe('schemas that refer to themselves', () => {
  it('are skipped as a field', () => {
    expect(dataTypeOf(selfReferring())).toBe('skipped');
  });

  it('are refused as the object of a type, saying so', () => {
    expect(() => scoreConfigs(selfReferring(), { typeName: 't' })).toThrow(
      new ScoreMappingError('the schema refers to itself without reaching an object'),
    );
  });
});

// Each reader follows at most 64 schemas before taking the schema to refer to itself, so one
// chain of wrappers 64 deep is where a real schema stops being read.
describe('the depth a schema is read to', () => {
  const wrapped = (depth: number, inner: z.ZodType, wrap: (schema: z.ZodType) => z.ZodType) =>
    Array.from({ length: depth }).reduce<z.ZodType>((schema) => wrap(schema), inner);

  it('reaches an object behind 63 readonly wrappers, not 64', () => {
    const rating = z.object({ stars: z.int() });
    expect(scoreConfigs(wrapped(63, rating, z.readonly), { typeName: 't' })).toHaveLength(1);
    expect(() => scoreConfigs(wrapped(64, rating, z.readonly), { typeName: 't' })).toThrow(
      new ScoreMappingError('the schema refers to itself without reaching an object'),
    );
  });

  it("reaches a field's kind behind 63 optional wrappers, not 64", () => {
    expect(dataTypeOf(wrapped(63, z.boolean(), z.optional))).toBe('BOOLEAN');
    expect(dataTypeOf(wrapped(64, z.boolean(), z.optional))).toBe('skipped');
  });

  it("reaches a pipe's string input behind 63 optional wrappers, not 64", () => {
    expect(dataTypeOf(z.pipe(wrapped(63, z.string(), z.optional), z.string()))).toBe('TEXT');
    expect(dataTypeOf(z.pipe(wrapped(64, z.string(), z.optional), z.string()))).toBe('skipped');
  });

  it('counts a union member as holding nothing behind 64 optional wrappers, not 65', () => {
    const nullable = (depth: number) => z.union([z.number(), wrapped(depth, z.null(), z.optional)]);
    expect(dataTypeOf(nullable(64))).toBe('NUMERIC');
    expect(dataTypeOf(nullable(65))).toBe('skipped');
  });
});

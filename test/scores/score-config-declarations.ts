// The zod declarations `score_configs.json` pins: each way a user writes a feedback or verdict
// type's fields, by name. The fixture holds the configs and score values each must give.
import { z } from 'zod';

enum Stance {
  Agree = 'agree',
  Disagree = 'disagree',
}

enum Severity {
  Low = 1,
  High = 3,
}

enum Mixed {
  Yes = 'y',
  Count = 2,
}

export const declarations: Record<string, z.core.$ZodType> = {
  /** The Python libraries' worked example (docs/specification.md#score-mapping). */
  answer_quality: z.strictObject({
    rating: z.int().min(1).max(5).describe('Overall quality'),
    on_topic: z.boolean(),
    tone: z.enum(['formal', 'casual']).default('formal'),
    comment: z.string().nullable().default(null),
    tags: z.array(z.string()).default([]),
  }),

  booleans: z.object({
    plain: z.boolean(),
    optional: z.boolean().optional(),
    nullable: z.boolean().nullable(),
    defaulted: z.boolean().default(true),
    nullish: z.boolean().nullish(),
  }),

  categories: z.object({
    tuple_enum: z.enum(['low', 'mid', 'high']),
    string_enum: z.enum(Stance),
    number_enum: z.enum(Severity),
    mixed_enum: z.enum(Mixed),
    one_literal: z.literal('only'),
    string_literals: z.literal(['a', 'b']),
    number_literals: z.literal([1, 2, 3]),
    boolean_literal: z.literal(true),
    literal_with_null: z.literal(['kept', null]),
    nullable_literals: z.union([z.literal(['x', 'y']), z.null()]).optional(),
    extracted: z.enum(['low', 'mid', 'high']).extract(['mid', 'high']),
    excluded: z.enum(['low', 'mid', 'high']).exclude(['mid']),
  }),

  numbers: z.object({
    plain: z.number(),
    integer: z.int(),
    min_max: z.int().min(1).max(5),
    gte_lte: z.number().gte(0).lte(1),
    gt_lt: z.number().gt(0).lt(10),
    positive_int: z.int().positive(),
    nonnegative: z.number().nonnegative(),
    negative: z.number().negative(),
    nonpositive: z.int().nonpositive(),
    exclusive_then_inclusive: z.number().gt(0).gte(1),
    inclusive_then_exclusive: z.number().gte(1).gt(0).lt(9).lte(10),
    last_inclusive: z.number().min(1).min(2).max(8).max(7),
    last_exclusive: z.number().gt(0).gt(5),
    multiple_of: z.number().multipleOf(0.5).max(10),
    int32: z.int32(),
    float64: z.float64(),
    coerced: z.coerce.number().min(0),
    bounded_then_described: z.int().min(0).max(100).describe('Percent'),
    described_then_bounded: z.int().describe('Stars').min(1).max(5),
    infinite_bound: z.number().max(Number.POSITIVE_INFINITY),
  }),

  texts: z.object({
    plain: z.string(),
    min_length: z.string().min(3),
    trimmed: z.string().trim(),
    nullable_default: z.string().nullable().default(null),
    pattern: z.string().regex(/^[a-z ]+$/),
    lowercased: z.string().toLowerCase(),
    refined: z.string().refine((text) => text !== 'n/a'),
    piped: z.string().pipe(z.string().trim()),
  }),

  descriptions: z.object({
    outer_wins: z.string().describe('inner').optional().describe('outer'),
    inner_through_wrapper: z.string().describe('inner').optional(),
    meta: z.number().meta({ description: 'from meta' }),
    meta_without_description: z.number().meta({ title: 'Title only' }),
    empty: z.boolean().describe(''),
    on_enum: z.enum(['a', 'b']).describe('choose'),
    nullable_outer: z.enum(['a', 'b']).describe('inner').nullable().describe('outer'),
  }),

  wrappers: z.object({
    nullish: z.int().min(0).nullish(),
    prefault: z.string().prefault('x'),
    readonly: z.boolean().readonly(),
    catch: z.enum(['a', 'b']).catch('a'),
    lazy: z.lazy(() => z.boolean()),
    union_with_null: z.union([z.string(), z.null()]),
    union_with_undefined: z.union([z.number().max(3), z.undefined()]),
    default_optional: z.int().max(9).default(1).optional(),
  }),

  skipped: z.object({
    kept: z.boolean(),
    array: z.array(z.number()),
    tuple: z.tuple([z.number(), z.number()]),
    record: z.record(z.string(), z.number()),
    object: z.object({ inner: z.number() }),
    string_or_number: z.union([z.string(), z.number()]),
    int_or_float: z.union([z.int(), z.number()]),
    literal_or_string: z.union([z.literal('a'), z.string()]),
    literal_union: z.union([z.literal('x'), z.literal('y')]),
    nullable_literal_union: z.union([z.literal('x'), z.literal('y'), z.null()]).optional(),
    enum_and_literal: z.union([z.enum(['a', 'b']), z.literal('c')]),
    nested_literal_unions: z.union([z.union([z.literal(1), z.literal(2)]), z.literal(2)]),
    email: z.email(),
    uuid: z.uuid(),
    url: z.url(),
    iso_date: z.iso.date(),
    iso_datetime: z.iso.datetime({ offset: true }),
    string_email: z.string().email(),
    bigint: z.bigint(),
    date: z.date(),
    map: z.map(z.string(), z.number()),
    set: z.set(z.string()),
    any: z.any(),
    unknown: z.unknown(),
    null: z.null(),
    null_literal: z.literal(null),
    nan: z.nan(),
    transformed: z.string().transform((text) => text.length),
    transformed_text: z.string().transform((text) => text.toUpperCase()),
    stringbool: z.stringbool(),
    template: z.templateLiteral(['v', z.number()]),
    discriminated: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a') }),
      z.object({ kind: z.literal('b') }),
    ]),
    json: z.json(),
  }),

  readonly_strict: z.strictObject({ score: z.number().min(0).max(1) }).readonly(),

  loose_refined: z
    .looseObject({ helpful: z.boolean(), why: z.string().max(2000) })
    .superRefine(() => undefined),
};

// Which fields are judged and how (docs/specification.md#score-mapping): unions of several
// kinds, formatted strings and pipes, each read through `scoreConfigs` and `scoreValues`.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ScoreConfig, scoreConfigs, scoreValues } from '../../src/scores/index.js';

/** The config one field gets, or null when the field is skipped. */
function configOf(field: z.core.$ZodType): ScoreConfig | null {
  return scoreConfigs(z.object({ field }), { typeName: 't' })[0] ?? null;
}

function dataTypeOf(field: z.core.$ZodType) {
  return configOf(field)?.dataType ?? 'skipped';
}

describe('unions', () => {
  it.each([
    ['two literals', z.union([z.literal('a'), z.literal('b')])],
    ['a literal and an enum', z.union([z.literal('a'), z.enum(['b', 'c'])])],
    ['two enums', z.union([z.enum(['a']), z.enum(['b'])])],
    ['two multi-value literals', z.union([z.literal(['a', 'b']), z.literal(['c'])])],
    ['nested unions of literals', z.union([z.union([z.literal(1), z.literal(2)]), z.literal(3)])],
    ['literals and null', z.union([z.literal('a'), z.literal('b'), z.null()])],
    ['a nullable union of literals', z.union([z.literal('a'), z.literal('b')]).nullable()],
    ['a defaulted union of literals', z.union([z.literal('a'), z.literal('b')]).default('a')],
    ['a nested member that is nullable', z.union([z.literal('a').nullable(), z.literal('b')])],
    ['two numbers', z.union([z.int(), z.number()])],
    ['a string and a number', z.union([z.string(), z.number()])],
    ['an exclusive union', z.xor([z.literal('a'), z.literal('b')])],
  ])('skips a union of two or more non-null members: %s', (_, field) => {
    expect(configOf(field)).toBeNull();
  });

  it('keeps a single multi-value literal and an enum categorical', () => {
    expect(configOf(z.literal(['a', 'b']))?.categories).toEqual(['a', 'b']);
    expect(configOf(z.enum(['a', 'b']))?.categories).toEqual(['a', 'b']);
  });

  it.each([
    ['a literal with null', z.union([z.literal(['a', 'b']), z.null()]), ['a', 'b']],
    [
      'an enum with undefined',
      z.union([z.enum(['a', 'b']), z.undefined()]).default('a'),
      ['a', 'b'],
    ],
    ['a null literal beside an enum', z.union([z.literal(null), z.enum(['x'])]), ['x']],
    ['nested nullable unions', z.union([z.union([z.literal('a'), z.null()]), z.null()]), ['a']],
    ['a union of one member', z.union([z.enum(['a', 'b'])]), ['a', 'b']],
  ])('reads a union with one non-null member as that member: %s', (_, field, categories) => {
    expect(configOf(field)).toMatchObject({ dataType: 'CATEGORICAL', categories });
  });

  it('reads a union of a number and null as the number, bounds included', () => {
    expect(configOf(z.union([z.int().min(1).max(5), z.null()]))).toMatchObject({
      dataType: 'NUMERIC',
      minimum: 1,
      maximum: 5,
    });
  });
});

describe('strings', () => {
  it.each([
    ['email', z.email()],
    ['uuid', z.uuid()],
    ['uuidv4', z.uuidv4()],
    ['uuidv7', z.uuidv7()],
    ['guid', z.guid()],
    ['url', z.url()],
    ['httpUrl', z.httpUrl()],
    ['emoji', z.emoji()],
    ['nanoid', z.nanoid()],
    ['cuid', z.cuid()],
    ['cuid2', z.cuid2()],
    ['ulid', z.ulid()],
    ['xid', z.xid()],
    ['ksuid', z.ksuid()],
    ['ipv4', z.ipv4()],
    ['ipv6', z.ipv6()],
    ['mac', z.mac()],
    ['cidrv4', z.cidrv4()],
    ['cidrv6', z.cidrv6()],
    ['base64', z.base64()],
    ['base64url', z.base64url()],
    ['e164', z.e164()],
    ['jwt', z.jwt()],
    ['creditCard', z.creditCard()],
    ['iban', z.iban()],
    ['currencyCode', z.currencyCode()],
    ['hostname', z.hostname()],
    ['hex', z.hex()],
    ['hash', z.hash('sha256')],
    ['iso.date', z.iso.date()],
    ['iso.time', z.iso.time()],
    ['iso.datetime', z.iso.datetime()],
    ['iso.datetime with an offset', z.iso.datetime({ offset: true })],
    ['iso.duration', z.iso.duration()],
    ['a custom format', z.stringFormat('slug', /^[a-z-]+$/)],
    ['a format with a length', z.email().max(200)],
    ['string().email()', z.string().email()],
    ['string().uuid()', z.string().uuid()],
    ['string().datetime()', z.string().datetime()],
    ['a format as a check', z.string().check(z.url())],
    ['an optional format', z.uuid().optional()],
    ['a nullable format with a default', z.iso.date().nullable().default(null)],
    ['a format or null', z.union([z.email(), z.null()])],
  ])('skips a string with a format: %s', (_, field) => {
    expect(configOf(field)).toBeNull();
  });

  it.each([
    ['min', z.string().min(3)],
    ['max', z.string().max(2000)],
    ['length', z.string().length(5)],
    ['nonempty', z.string().nonempty()],
    ['regex', z.string().regex(/^[a-z]+$/)],
    ['lowercase', z.string().lowercase()],
    ['uppercase', z.string().uppercase()],
    ['startsWith', z.string().startsWith('a')],
    ['endsWith', z.string().endsWith('z')],
    ['includes', z.string().includes('m')],
    ['trim', z.string().trim()],
    ['toLowerCase', z.string().toLowerCase()],
    ['toUpperCase', z.string().toUpperCase()],
    ['normalize', z.string().normalize()],
    ['overwrite', z.string().overwrite((text) => text.replaceAll('\t', ' '))],
    ['refine', z.string().refine((text) => text !== 'no')],
    ['superRefine', z.string().superRefine(() => undefined)],
    ['a check of several constraints', z.string().check(z.minLength(1), z.regex(/x/), z.trim())],
  ])('keeps a plain string with constraints as text: %s', (_, field) => {
    expect(dataTypeOf(field)).toBe('TEXT');
  });
});

describe('pipes and transforms', () => {
  it.each([
    ['a pipe to a trimmed string', z.string().pipe(z.string().trim())],
    ['a pipe from a constrained string', z.string().max(9).pipe(z.string().toLowerCase())],
    [
      'a transform piped to a string',
      z
        .string()
        .transform((text) => text.trim())
        .pipe(z.string()),
    ],
    ['a preprocess to a string', z.preprocess((raw) => raw, z.string())],
    [
      'a string codec',
      z.codec(z.string(), z.string().trim(), { decode: (text) => text, encode: (text) => text }),
    ],
    ['an optional pipe', z.string().pipe(z.string().trim()).optional()],
  ])('scores a pipe that gives a plain string from a string as text: %s', (_, field) => {
    expect(dataTypeOf(field)).toBe('TEXT');
  });

  it.each([
    ['a transform of a string to a string', z.string().transform((text) => text.toUpperCase())],
    ['a transform of a string to a number', z.string().transform((text) => text.length)],
    ['a bare transform', z.transform((raw) => String(raw))],
    ['a transform nested in a pipe', z.string().pipe(z.string().transform((text) => text))],
    ['stringbool', z.stringbool()],
    ['a pipe to a number', z.string().pipe(z.coerce.number())],
    ['a pipe to an enum', z.string().pipe(z.enum(['a', 'b']))],
    ['a pipe to a format', z.string().pipe(z.email())],
    ['a pipe from a format', z.email().pipe(z.string().toLowerCase())],
    ['a pipe from a number', z.number().transform(String).pipe(z.string())],
    ['a preprocess to a number', z.preprocess((raw) => Number(raw), z.number())],
  ])('skips any other pipe or transform: %s', (_, field) => {
    expect(configOf(field)).toBeNull();
  });

  it('reads a pipe’s description outside in: the pipe’s, then the output’s, then the input’s', () => {
    const input = z.string().describe('input');
    expect(configOf(input.pipe(z.string().describe('output')).describe('pipe'))?.description).toBe(
      'pipe',
    );
    expect(configOf(input.pipe(z.string().describe('output')))?.description).toBe('output');
    expect(configOf(input.pipe(z.string()))?.description).toBe('input');
    expect(configOf(z.string().pipe(z.string()))?.description).toBeNull();
  });
});

describe('scoreValues on these fields', () => {
  const Mixed = z.object({
    kept: z.string(),
    choice: z.union([z.literal('a'), z.literal('b')]),
    id: z.uuid(),
    when: z.iso.datetime(),
    length: z.string().transform((text) => text.length),
    shout: z.string().transform((text) => text.toUpperCase()),
    trimmed: z.string().pipe(z.string().trim()),
  });

  it('gives no score for a skipped field, and does not read it', () => {
    const stored = Mixed.parse({
      kept: 'k',
      choice: 'a',
      id: '0ccd671a-de3d-4a49-b4d4-500c997d2eca',
      when: '2026-09-29T12:00:00Z',
      length: 'four',
      shout: 'loud',
      trimmed: '  t  ',
    });
    const scored = scoreValues(Mixed, stored, { typeName: 'mixed' });
    expect(scored.map(({ config, value }) => [config.name, value])).toEqual([
      ['mixed.kept', 'k'],
      ['mixed.trimmed', 't'],
    ]);
    // The stored length is a number, which the transform's string input would refuse: skipped,
    // it is never checked.
    expect(
      scoreValues(Mixed, { ...stored, length: 4, id: 'not a uuid' }, { typeName: 'mixed' }),
    ).toHaveLength(2);
  });

  it('scores a piped string as the pipe’s output, from the raw text and the stored one alike', () => {
    const Note = z.object({ note: z.string().pipe(z.string().trim()) });
    const raw = { note: '  keep me  ' };
    const fromRaw = scoreValues(Note, raw, { typeName: 'n' });
    const fromStored = scoreValues(Note, Note.parse(raw), { typeName: 'n' });
    expect(fromRaw.map(({ value }) => value)).toEqual(['keep me']);
    expect(fromStored.map(({ value }) => value)).toEqual(['keep me']);
  });
});

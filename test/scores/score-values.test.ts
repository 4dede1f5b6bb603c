import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidScoreValueError,
  MAX_TEXT,
  ScoreMappingError,
  scoreValues,
} from '../../src/scores/index.js';

enum Verdict {
  Pass = 'pass',
  Fail = 'fail',
}

const Review = z.strictObject({
  stars: z.int().min(1).max(5),
  helpful: z.boolean(),
  verdict: z.enum(Verdict),
  note: z.string().nullable().default(null),
  tags: z.array(z.string()).default([]),
});
const options = { typeName: 'review' };

function pairs(value: unknown) {
  return scoreValues(Review, value, options).map(({ config, value }) => [config.field, value]);
}

describe('scoreValues', () => {
  it('keeps 0 and false, and skips null, undefined, "" and missing fields', () => {
    const Counts = z.object({ n: z.number(), ok: z.boolean(), a: z.string(), b: z.string() });
    const scored = scoreValues(Counts, { n: 0, ok: false, a: '' }, { typeName: 'c' });
    expect(scored.map(({ value }) => value)).toEqual([0, false]);
    expect(scoreValues(Counts, { n: null, ok: undefined }, { typeName: 'c' })).toEqual([]);
  });

  it('keeps a boolean a boolean and sends an enum as its value', () => {
    expect(pairs({ stars: 3, helpful: true, verdict: Verdict.Fail })).toEqual([
      ['stars', 3],
      ['helpful', true],
      ['verdict', 'fail'],
    ]);
  });

  it('pairs each score with its config', () => {
    const [first] = scoreValues(Review, { stars: 2 }, options);
    expect(first?.config).toMatchObject({ name: 'review.stars', minimum: 1, maximum: 5 });
  });

  it('gives the same scores for a parsed value and its JSON', () => {
    fc.assert(
      fc.property(
        fc.record({
          stars: fc.integer({ min: 1, max: 5 }),
          helpful: fc.boolean(),
          verdict: fc.constantFrom(Verdict.Pass, Verdict.Fail),
          note: fc.option(fc.string({ maxLength: 700 }), { nil: null }),
        }),
        (raw) => {
          const parsed = Review.parse(raw);
          expect(pairs(JSON.parse(JSON.stringify(parsed)))).toEqual(pairs(parsed));
        },
      ),
    );
  });

  it('never gives a category or text longer than MAX_TEXT', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 800 }), (note) => {
        for (const { value } of scoreValues(Review, { note }, options)) {
          expect(typeof value === 'string' && value.length <= MAX_TEXT).toBe(true);
          expect(note.startsWith(value as string)).toBe(true);
        }
      }),
    );
  });

  it('cuts text at MAX_TEXT units, one earlier where the cut would split a surrogate pair', () => {
    const cut = (note: string) => scoreValues(Review, { note }, options)[0]?.value;
    const before = 'a'.repeat(MAX_TEXT - 1);
    expect(cut(`${before}b`)).toBe(`${before}b`);
    expect(cut(`${before}bc`)).toBe(`${before}b`);
    // The first and the last high surrogate both start a pair the cut would split.
    expect(cut(`${before}\ud800\udc00tail`)).toBe(before);
    expect(cut(`${before}\udbff\udfff tail`)).toBe(before);
    // Just outside the high range nothing is split: U+D7FF is a character, U+DC00 a low half.
    expect(cut(`${before}\ud7ff tail`)).toBe(`${before}\ud7ff`);
    expect(cut(`${before}\udc00 tail`)).toBe(`${before}\udc00`);
  });

  it('keeps a text of exactly MAX_TEXT units whole, even one ending in the first half of a pair', () => {
    const note = `${'a'.repeat(MAX_TEXT - 1)}\ud800`;
    expect(scoreValues(Review, { note }, options)[0]?.value).toBe(note);
  });

  it('gives no score for a field its schema turns empty', () => {
    const Trimmed = z.object({ note: z.string().trim(), stars: z.int() });
    expect(
      scoreValues(Trimmed, { note: '   ', stars: 2 }, { typeName: 't' }).map(
        ({ config }) => config.field,
      ),
    ).toEqual(['stars']);
  });

  it('refuses a scored field that fails its schema, naming the field', () => {
    expect(() => pairs({ stars: 9 })).toThrow(InvalidScoreValueError);
    expect(() => pairs({ stars: 9 })).toThrow(/^review\.stars: the value does not match/);
    expect(() => pairs({ helpful: 'yes' })).toThrow(/review\.helpful/);
    expect(() => pairs({ verdict: 'Pass' })).toThrow(/review\.verdict/);
    try {
      pairs({ stars: 2.5 });
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidScoreValueError);
      expect((error as InvalidScoreValueError).field).toBe('stars');
      expect((error as InvalidScoreValueError).problems.length).toBeGreaterThan(0);
    }
  });

  it("names where inside a field its schema's problem is", () => {
    const Worded = z.object({
      t: z
        .string()
        .transform((text, context) => {
          if (text === 'bad') {
            context.addIssue({ code: 'custom', message: 'not this word', path: ['word'] });
          }
          return text;
        })
        .pipe(z.string()),
    });
    const error = (() => {
      try {
        scoreValues(Worded, { t: 'bad' }, { typeName: 'w' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidScoreValueError);
    expect(error).toMatchObject({
      message: 'w.t: the value does not match its schema (word: not this word)',
      field: 't',
      problems: ['word: not this word'],
    });
  });

  it("lists each of a field's problems, a nested one with its path joined by dots", () => {
    const Code = z.object({
      code: z.string().min(3, 'three or more').regex(/x/, 'an x'),
      words: z
        .string()
        .transform((text, context) => {
          context.addIssue({ code: 'custom', message: 'no words yet', path: ['words', 0] });
          return text;
        })
        .pipe(z.string()),
    });
    const failure = (value: object) => {
      try {
        scoreValues(Code, value, { typeName: 'f' });
      } catch (caught) {
        return caught;
      }
    };
    expect(failure({ code: 'ab' })).toMatchObject({
      message: 'f.code: the value does not match its schema (three or more; an x)',
      field: 'code',
      problems: ['three or more', 'an x'],
    });
    expect(failure({ words: 'a b' })).toMatchObject({
      message: 'f.words: the value does not match its schema (words.0: no words yet)',
      problems: ['words.0: no words yet'],
    });
  });

  it('scores a field named __proto__ from its own value, alone or beside others', () => {
    // A computed key declares an own field; a plain `__proto__:` would set the prototype.
    const Alone = z.object({ ['__proto__']: z.string() });
    const Beside = z.object({ ['__proto__']: z.string(), stars: z.int() });
    const stored = JSON.parse('{"__proto__": "own", "stars": 4}');
    const values = (schema: z.core.$ZodType) =>
      scoreValues(schema, stored, { typeName: 'p' }).map(({ config, value }) => [
        config.name,
        value,
      ]);
    expect(values(Alone)).toEqual([['p.__proto__', 'own']]);
    expect(values(Beside)).toEqual([
      ['p.__proto__', 'own'],
      ['p.stars', 4],
    ]);
  });

  it('scores a bigint category by its digits', () => {
    const Tier = z.object({ tier: z.literal([1n, 2n]) });
    expect(scoreValues(Tier, { tier: 2n }, { typeName: 'tier' }).map(({ value }) => value)).toEqual(
      ['2'],
    );
  });

  it('refuses what a schema gives that its data type cannot hold', () => {
    // `.catch` turns any input into its fallback, here one no NUMERIC score may hold.
    const Caught = z.object({ x: z.number().catch(Number.POSITIVE_INFINITY) });
    expect(() => scoreValues(Caught, { x: 'x' }, { typeName: 'c' })).toThrow(
      new InvalidScoreValueError('c.x: a NUMERIC score cannot hold Infinity', 'x', []),
    );
    try {
      scoreValues(Caught, { x: 'x' }, { typeName: 'c' });
    } catch (error) {
      expect(error).toMatchObject({ field: 'x', problems: [] });
    }
  });

  it('does not read fields that are not scored', () => {
    expect(pairs({ stars: 1, tags: 'not a list' })).toEqual([['stars', 1]]);
  });

  it('refuses a value that is not an object', () => {
    for (const value of [null, [], 'review', 3]) {
      expect(() => scoreValues(Review, value, options)).toThrow(InvalidScoreValueError);
    }
    expect(() => scoreValues(Review, [], options)).toThrow(
      'review scores are read from an object, not an array',
    );
    const error = (() => {
      try {
        scoreValues(Review, null, options);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toMatchObject({
      message: 'review scores are read from an object, not null',
      field: null,
      problems: [],
    });
  });

  it('refuses a schema it cannot read, as scoreConfigs does', () => {
    expect(() => scoreValues(z.number(), {}, options)).toThrow(ScoreMappingError);
  });

  it('checks wide types field by field, with the same results', () => {
    const shape = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`f${i}`, z.int().min(0)] as const),
    );
    const Wide = z.object(shape);
    const value = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, i]));
    const scored = scoreValues(Wide, value, { typeName: 'wide' });
    expect(scored.map(({ value }) => value)).toEqual(Object.values(value));
    expect(() => scoreValues(Wide, { ...value, f33: -1 }, { typeName: 'wide' })).toThrow(
      /^wide\.f33: the value does not match its schema/,
    );
  });

  it('names the first failing field in field order when several fail', () => {
    expect(() => pairs({ verdict: 'nope', stars: 0 })).toThrow(/^review\.stars:/);
  });

  it('reads only own fields', () => {
    const Proto = z.object({ constructor: z.string() });
    expect(scoreValues(Proto, {}, { typeName: 'p' })).toEqual([]);
  });
});

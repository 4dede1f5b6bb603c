import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidScoreValueError,
  MAX_TEXT,
  ScoreMappingError,
  scoreValidatedValues,
  scoreValues,
} from '../../src/scores/index.js';

const Review = z.strictObject({
  stars: z.int().min(1).max(5),
  helpful: z.boolean(),
  verdict: z.enum(['pass', 'fail']),
  note: z.string().nullable().default(null),
  tags: z.array(z.string()).default([]),
});
const options = { typeName: 'review' };

/** What `run` threw, or a failure when it threw nothing. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

const reviews = fc.record({
  stars: fc.integer({ min: 1, max: 5 }),
  helpful: fc.boolean(),
  verdict: fc.constantFrom('pass' as const, 'fail' as const),
  note: fc.option(fc.string({ maxLength: 700 }), { nil: null }),
  tags: fc.array(fc.string(), { maxLength: 2 }),
});

describe('scoreValidatedValues', () => {
  it('gives exactly what scoreValues gives for any value the schema accepted, and its JSON', () => {
    fc.assert(
      fc.property(reviews, (raw) => {
        const parsed = Review.parse(raw);
        const stored = JSON.parse(JSON.stringify(parsed));
        expect(scoreValidatedValues(Review, stored, options)).toEqual(
          scoreValues(Review, parsed, options),
        );
      }),
    );
  });

  it('keeps 0 and false, skips null, undefined, "" and missing fields, and cuts long text', () => {
    const Counts = z.object({ n: z.number(), ok: z.boolean(), a: z.string(), b: z.string() });
    const scored = scoreValidatedValues(
      Counts,
      { n: 0, ok: false, a: '', b: 'x'.repeat(MAX_TEXT + 5) },
      { typeName: 'c' },
    );
    expect(scored.map(({ value }) => value)).toEqual([0, false, 'x'.repeat(MAX_TEXT)]);
    expect(scoreValidatedValues(Counts, { n: null, ok: undefined }, { typeName: 'c' })).toEqual([]);
  });

  it('still refuses a field of the wrong kind for its score, naming the score', () => {
    expect(() => scoreValidatedValues(Review, { helpful: 'yes' }, options)).toThrow(
      InvalidScoreValueError,
    );
    expect(() => scoreValidatedValues(Review, { stars: 'five' }, options)).toThrow(
      /^review\.stars: a NUMERIC score cannot hold a string/,
    );
    expect(() => scoreValidatedValues(Review, { stars: Number.NaN }, options)).toThrow(
      /review\.stars/,
    );
  });

  // A schema of the test's own: the mapping is compiled when a schema is first met, so the
  // values checked here go through a mapping compiled for them.
  it('refuses a value of another kind in every field, whatever kind the field scores', () => {
    const Kinds = z.object({ ok: z.boolean(), n: z.number(), label: z.string() });
    const cases = [
      [{ ok: 1 }, 'k.ok: a BOOLEAN score cannot hold a number'],
      [{ ok: 'yes' }, 'k.ok: a BOOLEAN score cannot hold a string'],
      [{ n: '5' }, 'k.n: a NUMERIC score cannot hold a string'],
      [{ n: true }, 'k.n: a NUMERIC score cannot hold a boolean'],
      [{ label: {} }, 'k.label: a TEXT score cannot hold an object'],
    ] as const;
    for (const [value, message] of cases) {
      expect(thrown(() => scoreValidatedValues(Kinds, value, { typeName: 'k' }))).toEqual(
        new InvalidScoreValueError(message, Object.keys(value)[0] ?? null, []),
      );
    }
  });

  it('names each score by the type name asked for, one schema under two names', () => {
    const Shared = z.object({ stars: z.int() });
    const names = (typeName: string) =>
      scoreValidatedValues(Shared, { stars: 3 }, { typeName }).map(({ config }) => config.name);
    expect(names('first')).toEqual(['first.stars']);
    expect(names('second')).toEqual(['second.stars']);
    expect(names('first')).toEqual(['first.stars']);
  });

  it('says what it was given in place of an object, with no problems of a field', () => {
    for (const [value, kind] of [
      ['review', 'a string'],
      [null, 'null'],
      [[], 'an array'],
    ] as const) {
      const error = thrown(() => scoreValidatedValues(Review, value, options));
      expect(error).toBeInstanceOf(InvalidScoreValueError);
      expect(error).toMatchObject({
        message: `review scores are read from an object, not ${kind}`,
        field: null,
        problems: [],
      });
    }
  });

  it('refuses a value that is not an object, and a schema scoreConfigs cannot read', () => {
    for (const value of [null, [], 'review', 3]) {
      expect(() => scoreValidatedValues(Review, value, options)).toThrow(InvalidScoreValueError);
    }
    expect(() => scoreValidatedValues(z.number(), {}, options)).toThrow(ScoreMappingError);
  });

  it('reads only own, scored fields', () => {
    expect(scoreValidatedValues(Review, { stars: 1, tags: 'not a list' }, options)).toEqual(
      scoreValues(Review, { stars: 1 }, options),
    );
    const Proto = z.object({ constructor: z.string(), toString: z.string() });
    expect(scoreValidatedValues(Proto, {}, { typeName: 'p' })).toEqual([]);
    expect(
      scoreValidatedValues(Proto, { toString: 'own' }, { typeName: 'p' }).map((s) => s.value),
    ).toEqual(['own']);
    const inherited = Object.create({ stars: 4, helpful: true });
    inherited.verdict = 'pass';
    expect(scoreValidatedValues(Review, inherited, options)).toEqual(
      scoreValues(Review, { verdict: 'pass' }, options),
    );
    const bare = Object.assign(Object.create(null), { stars: 2 });
    expect(scoreValidatedValues(Review, bare, options)).toEqual(
      scoreValues(Review, { stars: 2 }, options),
    );
  });

  it('converts numbers and booleans in a text or category field as scoreValues does', () => {
    const Loose = z.object({ label: z.union([z.string(), z.null()]) });
    expect(scoreValidatedValues(Loose, { label: 3 }, { typeName: 'l' })).toEqual([
      expect.objectContaining({ value: '3' }),
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ScoreMappingError, scoreConfigs } from '../../src/scores/index.js';

const Rating = z.strictObject({ stars: z.int().min(1).max(5), fine: z.boolean() });

describe('scoreConfigs', () => {
  it('gives one config per scorable field, in field order, named {typeName}.{field}', () => {
    const configs = scoreConfigs(Rating, { typeName: 'rating' });
    expect(configs.map((config) => config.name)).toEqual(['rating.stars', 'rating.fine']);
    expect(configs.map((config) => config.typeName)).toEqual(['rating', 'rating']);
  });

  it('computes the configs once per schema and type name', () => {
    const first = scoreConfigs(Rating, { typeName: 'rating' });
    expect(scoreConfigs(Rating, { typeName: 'rating' })).toBe(first);
    const other = scoreConfigs(Rating, { typeName: 'other' });
    expect(other).not.toBe(first);
    expect(other[0]?.name).toBe('other.stars');
  });

  it('keeps the configs of each type name of a schema while other schemas and names are asked for', () => {
    const Fresh = z.object({ stars: z.int() });
    const first = scoreConfigs(Fresh, { typeName: 'first' });
    const second = scoreConfigs(Fresh, { typeName: 'second' });
    scoreConfigs(Rating, { typeName: 'first' });
    expect(scoreConfigs(Fresh, { typeName: 'first' })).toBe(first);
    expect(scoreConfigs(Fresh, { typeName: 'second' })).toBe(second);
    expect(second[0]?.name).toBe('second.stars');
  });

  it('hands out frozen configs, so one caller cannot change another caller’s', () => {
    const configs = scoreConfigs(Rating, { typeName: 'rating' });
    expect(Object.isFrozen(configs)).toBe(true);
    expect(Object.isFrozen(configs[0])).toBe(true);
    expect(Object.isFrozen(configs[0]?.categories)).toBe(true);
  });

  it('refuses a category longer than a score can hold, naming the limit', () => {
    const long = 'x'.repeat(501);
    expect(() =>
      scoreConfigs(z.object({ label: z.enum(['short', long]) }), { typeName: 'long' }),
    ).toThrow(
      new ScoreMappingError(
        `a category is at most 500 UTF-16 units, as a score holds it; "${'x'.repeat(40)}…" has 501`,
      ),
    );
    expect(
      scoreConfigs(z.object({ label: z.enum(['ok', 'y'.repeat(500)]) }), { typeName: 'edge' }),
    ).toHaveLength(1);
  });

  it('reads an object behind a lazy reference', () => {
    const configs = scoreConfigs(
      z.lazy(() => Rating),
      { typeName: 'lazy' },
    );
    expect(configs).toHaveLength(2);
  });

  it('refuses a schema that is not an object, naming what it is', () => {
    expect(() => scoreConfigs(z.string(), { typeName: 't' })).toThrow(ScoreMappingError);
    expect(() => scoreConfigs(z.array(Rating), { typeName: 't' })).toThrow(
      /object schema .* not an array schema/,
    );
    expect(() => scoreConfigs(z.union([Rating, Rating]), { typeName: 't' })).toThrow(
      ScoreMappingError,
    );
    expect(() =>
      scoreConfigs(
        Rating.transform((r) => r.stars),
        { typeName: 't' },
      ),
    ).toThrow(/not a pipe schema/);
  });

  it('refuses a value in place of a schema', () => {
    expect(() => scoreConfigs({ stars: 1 } as never, { typeName: 't' })).toThrow(
      'scores are read from a zod object schema, not from a value',
    );
    for (const value of [null, 3, 'review']) {
      expect(() => scoreConfigs(value as never, { typeName: 't' }), String(value)).toThrow(
        new ScoreMappingError('scores are read from a zod object schema, not from a value'),
      );
    }
  });

  it('refuses an empty or missing type name, saying what it is for', () => {
    const refusal = new ScoreMappingError(
      'scores need a type name for their names ({typeName}.{field}), such as the feedback ' +
        'type registered name; got an empty one',
    );
    expect(() => scoreConfigs(Rating, { typeName: ' ' })).toThrow(refusal);
    // A caller without types may leave it out.
    expect(() => scoreConfigs(Rating, {} as never)).toThrow(refusal);
  });

  it('gives no configs for an object with nothing to judge', () => {
    expect(scoreConfigs(z.object({ tags: z.array(z.string()) }), { typeName: 't' })).toEqual([]);
  });
});

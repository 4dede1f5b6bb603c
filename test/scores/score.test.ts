import { describe, expect, it } from 'vitest';
import {
  InvalidScoreError,
  parseScore,
  parseScores,
  type Score,
  ScoreSchema,
  scoreMetadata,
} from '../../src/scores/index.js';

const base = { id: 's1', name: 'review.stars', value: 4, dataType: 'NUMERIC' } as const;
const trace = '4bf92f3577b34da6a3ce929d0e0e4736';

function problems(input: unknown): string[] {
  try {
    parseScore(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidScoreError);
    return [...(error as InvalidScoreError).problems];
  }
  throw new Error('the score was accepted');
}

describe('Score', () => {
  it('fills an empty source and keeps the rest as given', () => {
    expect(parseScore({ ...base, sessionId: 'thread-1' })).toEqual({
      ...base,
      sessionId: 'thread-1',
      source: {},
    });
  });

  it('refuses a value of the wrong type for its data type', () => {
    expect(problems({ ...base, dataType: 'BOOLEAN', value: 1 })).toEqual([
      "score review.stars (s1): value: a BOOLEAN score's value is a boolean, not 1",
    ]);
    expect(problems({ ...base, value: true })).toEqual([
      "score review.stars (s1): value: a NUMERIC score's value is a number, not true",
    ]);
    expect(problems({ ...base, dataType: 'CATEGORICAL', value: 3 })[0]).toContain('is a string');
    expect(problems({ ...base, dataType: 'TEXT', value: false })[0]).toContain('is a string');
  });

  it('refuses a number that is not finite, with one problem at its value', () => {
    for (const value of [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN]) {
      expect(problems({ ...base, value }), String(value)).toEqual([
        expect.stringMatching(/^score review\.stars \(s1\): value: /),
      ]);
    }
  });

  it('refuses a timestamp without a zone, and takes one with Z or an offset', () => {
    expect(problems({ ...base, timestamp: '2026-09-29T12:30:00' })[0]).toContain(
      'a timestamp is ISO-8601 with a zone',
    );
    expect(parseScore({ ...base, timestamp: '2026-09-29T12:30:00Z' }).timestamp).toBe(
      '2026-09-29T12:30:00Z',
    );
    expect(parseScore({ ...base, timestamp: '2026-09-29T14:30:00.123+02:00' })).toBeTruthy();
  });

  it('refuses a span without a trace, and ids that are not lowercase hex', () => {
    expect(problems({ ...base, spanId: '00f067aa0ba902b7' })).toEqual([
      'score review.stars (s1): spanId: a span needs a trace',
    ]);
    expect(problems({ ...base, traceId: trace.toUpperCase() })[0]).toContain('32 lowercase hex');
    expect(problems({ ...base, traceId: trace, spanId: 'abc' })[0]).toContain('16 lowercase hex');
  });

  it('takes trace and span ids of exactly 32 and 16 hex digits, nothing around them', () => {
    const span = '00f067aa0ba902b7';
    expect(parseScore({ ...base, traceId: trace, spanId: span })).toMatchObject({
      traceId: trace,
      spanId: span,
    });
    for (const traceId of [`${trace}0`, trace.slice(1), `x${trace}`, `${trace}x`]) {
      expect(problems({ ...base, traceId }), traceId).toEqual([
        'score review.stars (s1): traceId: a trace id is 32 lowercase hex digits',
      ]);
    }
    for (const spanId of [`${span}0`, span.slice(1), `x${span}`, `${span}x`]) {
      expect(problems({ ...base, traceId: trace, spanId }), spanId).toEqual([
        'score review.stars (s1): spanId: a span id is 16 lowercase hex digits',
      ]);
    }
  });

  it('refuses source keys that clash with the evaluator fields, listing them', () => {
    expect(problems({ ...base, source: { version: '1', evaluator: 'x', tenant: 't' } })).toEqual([
      'score review.stars (s1): source: source keys evaluator, version clash with the evaluator fields of the metadata',
    ]);
  });

  it('refuses unknown keys and missing required ones', () => {
    expect(problems({ ...base, comment: 'x' })[0]).toContain('comment');
    expect(problems({ name: 'n', value: 1, dataType: 'NUMERIC' })[0]).toMatch(/^score #1: id/);
  });

  it('labels a score by its position when it has no string name and id, or is no object', () => {
    const { name: _, ...unnamed } = base;
    expect(problems(unnamed)).toEqual([
      'score #1: name: Invalid input: expected string, received undefined',
    ]);
    for (const input of [null, undefined]) {
      expect(problems(input)).toEqual([
        `score #1: Invalid input: expected object, received ${input}`,
      ]);
    }
  });

  it('joins a nested path with dots and gives a problem of the whole score without a path', () => {
    expect(problems({ ...base, source: { tenant: 1 } })).toEqual([
      'score review.stars (s1): source.tenant: Invalid input: expected string, received number',
    ]);
    expect(problems({ ...base, comment: 'x' })).toEqual([
      'score review.stars (s1): Unrecognized key: "comment"',
    ]);
  });

  it('refuses an empty evaluator version, and takes one of several characters', () => {
    expect(problems({ ...base, evaluator: 'judge', version: '' })).toEqual([
      'score review.stars (s1): version: Too small: expected string to have >=1 characters',
    ]);
    expect(parseScore({ ...base, evaluator: 'judge', version: '2026.12' }).version).toBe('2026.12');
  });

  it("reports its own rules as custom issues at their fields, as zod's own are", () => {
    const parsed = ScoreSchema.safeParse({
      ...base,
      value: true,
      spanId: '00f067aa0ba902b7',
      source: { version: '1' },
    });
    expect(parsed.error?.issues.map(({ code, path }) => ({ code, path }))).toEqual([
      { code: 'custom', path: ['value'] },
      { code: 'custom', path: ['spanId'] },
      { code: 'custom', path: ['source'] },
    ]);
  });

  it('checks a whole batch, reporting every bad score', () => {
    expect(() =>
      parseScores([base, { ...base, id: 's2', value: 'x' }, { ...base, id: 's3', value: 'y' }]),
    ).toThrow(/s2.*s3/);
    const untraced = { ...base, spanId: '00f067aa0ba902b7' };
    expect(() => parseScores([untraced, { ...untraced, id: 's2' }])).toThrow(
      new InvalidScoreError(
        'invalid score: score review.stars (s1): spanId: a span needs a trace; ' +
          'score review.stars (s2): spanId: a span needs a trace',
        [
          'score review.stars (s1): spanId: a span needs a trace',
          'score review.stars (s2): spanId: a span needs a trace',
        ],
      ),
    );
  });

  it('gives metadata as the source entries, then evaluator, version and confidence when set', () => {
    const score: Score = {
      ...base,
      source: { tenant_id: 't', actor: 'user:u' },
      evaluator: 'judge',
      version: '2',
      confidence: 0.5,
    };
    expect(Object.entries(scoreMetadata(score))).toEqual([
      ['tenant_id', 't'],
      ['actor', 'user:u'],
      ['evaluator', 'judge'],
      ['version', '2'],
      ['confidence', 0.5],
    ]);
    expect(scoreMetadata({ ...base, source: {}, confidence: 0 })).toEqual({ confidence: 0 });
  });
});

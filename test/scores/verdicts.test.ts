import { v5 as uuidv5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  EVALFLOW_SCORE_NAMESPACE,
  EVALR_SCORE_NAMESPACE,
  InvalidScoreError,
  InvalidScoreValueError,
  scores,
  type Verdict,
} from '../../src/scores/index.js';

const Helpfulness = z.strictObject({
  helpful: z.boolean(),
  score: z.number().min(0).max(1),
  reason: z.string(),
});

const trace = '4bf92f3577b34da6a3ce929d0e0e4736';

function verdict(
  overrides: Partial<Verdict<typeof Helpfulness>> = {},
): Verdict<typeof Helpfulness> {
  return {
    schema: Helpfulness,
    typeName: 'helpfulness',
    value: { helpful: true, score: 0.8, reason: 'cites the docs' },
    evaluator: 'judge',
    version: '3',
    confidence: { helpful: 0.9 },
    traceId: trace,
    ...overrides,
  };
}

describe('scores(verdict)', () => {
  it('gives one score per field, with the evaluator, version, trace and confidence', () => {
    const given = scores(verdict(), { spanId: '00f067aa0ba902b7' });
    expect(given).toEqual([
      {
        id: uuidv5(`${trace}|judge|3|helpfulness.helpful`, EVALFLOW_SCORE_NAMESPACE),
        name: 'helpfulness.helpful',
        value: true,
        dataType: 'BOOLEAN',
        traceId: trace,
        spanId: '00f067aa0ba902b7',
        evaluator: 'judge',
        version: '3',
        confidence: 0.9,
        source: {},
      },
      expect.objectContaining({ name: 'helpfulness.score', value: 0.8, dataType: 'NUMERIC' }),
      expect.objectContaining({ name: 'helpfulness.reason', value: 'cites the docs' }),
    ]);
    expect(given[1]).not.toHaveProperty('confidence');
  });

  it('keys ids by subject first, then trace, then the value', () => {
    const bySubject = scores(verdict(), { subject: 'run-1' })[0]?.id;
    expect(bySubject).toBe(uuidv5('run-1|judge|3|helpfulness.helpful', EVALFLOW_SCORE_NAMESPACE));
    const untraced = verdict({ traceId: undefined });
    expect(scores(untraced)[0]?.id).toBe(scores(untraced)[0]?.id);
    const other = verdict({ traceId: undefined, value: { helpful: false, score: 0, reason: 'r' } });
    expect(scores(other)[0]?.id).not.toBe(scores(untraced)[0]?.id);
  });

  it('gives different ids to different evaluator versions', () => {
    expect(scores(verdict())[0]?.id).not.toBe(scores(verdict({ version: '4' }))[0]?.id);
  });

  it("gives evalr's ids in evalr's namespace", () => {
    const id = scores(verdict(), { subject: 's', namespace: EVALR_SCORE_NAMESPACE })[0]?.id;
    expect(id).toBe(uuidv5('s|judge|3|helpfulness.helpful', EVALR_SCORE_NAMESPACE));
  });

  it('refuses confidence for a field the verdict type lacks', () => {
    expect(() => scores(verdict({ confidence: { tone: 0.5 } }))).toThrow(InvalidScoreError);
    expect(() => scores(verdict({ confidence: { tone: 0.5 } }))).toThrow(/tone/);
  });

  it('names every field the confidence has and the verdict type lacks, as one problem', () => {
    const problem = 'confidence for fields the verdict does not have: tone, style';
    expect(() => scores(verdict({ confidence: { tone: 0.5, helpful: 0.9, style: 0.1 } }))).toThrow(
      new InvalidScoreError(`helpfulness verdict: ${problem}`, [problem]),
    );
  });

  it('gives scores without confidence for a verdict that has none', () => {
    const given = scores(verdict({ confidence: undefined }));
    expect(given).toHaveLength(3);
    for (const score of given) expect(score).not.toHaveProperty('confidence');
  });

  it('refuses a verdict whose value fails its schema', () => {
    const bad = verdict({ value: { helpful: true, score: 2, reason: 'r' } });
    expect(() => scores(bad)).toThrow(InvalidScoreValueError);
  });

  it('drops an empty text and cuts a long one', () => {
    const empty = scores(verdict({ value: { helpful: true, score: 1, reason: '' } }));
    expect(empty.map((score) => score.name)).not.toContain('helpfulness.reason');
    const long = scores(verdict({ value: { helpful: true, score: 1, reason: 'y'.repeat(900) } }));
    expect(long.at(-1)?.value).toHaveLength(500);
  });
});

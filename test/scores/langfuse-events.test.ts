import { describe, expect, it } from 'vitest';
import { InvalidScoreError, parseScore, type Score } from '../../src/scores/index.js';
import {
  batches,
  checkLangfuseScores,
  type ScoreCreateEvent,
  scoreEvent,
} from '../../src/scores/langfuse/events.js';

const trace = '4bf92f3577b34da6a3ce929d0e0e4736';
const now = new Date('2026-09-29T12:00:00.000Z');
const score = (id: string, overrides: Partial<Score> = {}): Score =>
  parseScore({
    id,
    name: 'review.note',
    value: 'fine',
    dataType: 'TEXT',
    traceId: trace,
    ...overrides,
  });

function problems(scores: Score[]): string[] {
  try {
    checkLangfuseScores(scores);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidScoreError);
    return [...(error as InvalidScoreError).problems];
  }
  return [];
}

describe('scoreEvent', () => {
  it('sends no metadata, environment or config id when there is none', () => {
    const event = scoreEvent(score('s1'), { now });
    expect(event.body).toStrictEqual({
      id: 's1',
      name: 'review.note',
      value: 'fine',
      dataType: 'TEXT',
      traceId: trace,
    });
    expect(event.timestamp).toBe('2026-09-29T12:00:00.000Z');
  });

  it('sends the metadata, environment and config id when there are', () => {
    const event = scoreEvent(score('s1', { source: { tenant: 'acme' }, evaluator: 'tone' }), {
      now,
      environment: 'staging',
      configId: 'cfg-1',
    });
    expect(event.body).toMatchObject({
      metadata: { tenant: 'acme', evaluator: 'tone' },
      environment: 'staging',
      configId: 'cfg-1',
    });
  });
});

describe('scoreEvent targets and values', () => {
  it('attaches a score to its trace and span, or to its session when it has no trace', () => {
    const span = '00f067aa0ba902b7';
    const onSpan = scoreEvent(score('s1', { spanId: span, sessionId: 'thread-1' }), { now });
    expect(onSpan.body).toStrictEqual({
      id: 's1',
      name: 'review.note',
      value: 'fine',
      dataType: 'TEXT',
      traceId: trace,
      observationId: span,
    });
    const onSession = score('s2', { sessionId: 'thread-1' });
    delete onSession.traceId;
    expect(scoreEvent(onSession, { now }).body).toStrictEqual({
      id: 's2',
      name: 'review.note',
      value: 'fine',
      dataType: 'TEXT',
      sessionId: 'thread-1',
    });
  });

  it('sends a boolean as 1 or 0, at the score’s own time, under a fresh envelope id', () => {
    const yes = score('s1', {
      dataType: 'BOOLEAN',
      value: true,
      timestamp: '2026-09-30T08:00:00+02:00',
    });
    const no = score('s2', { dataType: 'BOOLEAN', value: false });
    const first = scoreEvent(yes, { now });
    expect(first.body.value).toBe(1);
    expect(scoreEvent(no, { now }).body.value).toBe(0);
    expect(first.timestamp).toBe('2026-09-30T06:00:00.000Z');
    expect(first.type).toBe('score-create');
    expect(scoreEvent(yes, { now }).id).not.toBe(first.id);
  });
});

describe('checkLangfuseScores', () => {
  it('takes a text of 1 to 500 characters and refuses an empty one or a longer one', () => {
    expect(
      problems([score('s1', { value: 'x' }), score('s2', { value: 'x'.repeat(500) })]),
    ).toEqual([]);
    expect(problems([score('s1', { value: '' }), score('s2', { value: 'x'.repeat(501) })])).toEqual(
      [
        'score review.note (s1): Langfuse holds 1 to 500 characters of text',
        'score review.note (s2): Langfuse holds 1 to 500 characters of text',
      ],
    );
  });

  it('lists every problem in its message', () => {
    const bare = score('s1', { value: '' });
    delete bare.traceId;
    expect(() => checkLangfuseScores([bare])).toThrow(
      'Langfuse cannot hold these scores: score review.note (s1): Langfuse attaches a score to a ' +
        'trace or a session; it has neither; score review.note (s1): Langfuse holds 1 to 500 ' +
        'characters of text',
    );
  });
});

describe('batches', () => {
  const events = ['s1', 's2', 's3'].map((id) => scoreEvent(score(id), { now }));
  /** What `batches` counts for an event: its JSON and a comma. */
  const size = (event: ScoreCreateEvent) =>
    new TextEncoder().encode(JSON.stringify(event)).length + 1;
  const envelope = '{"batch":[]}'.length;
  const ids = (split: ScoreCreateEvent[][]) => split.map((batch) => batch.map((e) => e.body.id));
  const [one, two] = events.map(size) as [number, number];

  it('fills a batch up to exactly its limit, and starts the next one past it', () => {
    expect(ids(batches(events, envelope + one + two))).toEqual([['s1', 's2'], ['s3']]);
    expect(ids(batches(events, envelope + one + two - 1))).toEqual([['s1'], ['s2'], ['s3']]);
    expect(ids(batches(events, 10_000))).toEqual([['s1', 's2', 's3']]);
    expect(batches([], 10_000)).toEqual([]);
  });

  it('refuses an event that fits no batch, saying how big it is', () => {
    expect(ids(batches(events.slice(0, 1), envelope + one))).toEqual([['s1']]);
    const limit = envelope + one - 1;
    const problem = `score review.note is ${one} bytes, over the batch limit of ${limit}`;
    expect(() => batches(events, limit)).toThrow(InvalidScoreError);
    expect(() => batches(events, limit)).toThrow(problem);
    expect(() => batches(events, limit)).toThrow(expect.objectContaining({ problems: [problem] }));
  });
});

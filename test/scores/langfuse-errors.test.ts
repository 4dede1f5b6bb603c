import { describe, expect, it } from 'vitest';
import { ScoreMappingError, ScoreSinkError } from '../../src/scores/index.js';
import {
  LangfuseIngestionError,
  retryAfter,
  ScoreConfigNameError,
} from '../../src/scores/langfuse/index.js';

describe('Langfuse errors', () => {
  it('read Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-09-29T12:00:00Z');
    expect(retryAfter('2', now)).toBe(2000);
    expect(retryAfter('Tue, 29 Sep 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfter('Tue, 29 Sep 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfter(null, now)).toBeUndefined();
    expect(retryAfter('soon', now)).toBeUndefined();
  });

  it('make an ingestion error retryable only when every refused event is', () => {
    const failure = { scoreId: 'a', name: 'n', status: 500, message: 'boom', retryable: true };
    expect(new LangfuseIngestionError([failure], 3).retryable).toBe(true);
    const mixed = new LangfuseIngestionError(
      [failure, { ...failure, scoreId: 'b', status: 400, retryable: false }],
      3,
    );
    expect(mixed.retryable).toBe(false);
    expect(mixed).toBeInstanceOf(ScoreSinkError);
    expect(mixed.message).toBe('Langfuse refused 2 of 3 scores: n (a): 500 boom; n (b): 400 boom');
  });

  it('class a config name Langfuse refuses as a mapping error', () => {
    expect(new ScoreConfigNameError('x')).toBeInstanceOf(ScoreMappingError);
    expect(new ScoreConfigNameError('x').name).toBe('ScoreConfigNameError');
  });
});

import { describe, expect, it } from 'vitest';
import { ScoreConfigFileError } from '../../src/scores/file/index.js';
import {
  InvalidScoreError,
  InvalidScoreValueError,
  ScoreConfigExistsError,
  ScoreConfigSyncConflictError,
  ScoreMappingError,
  ScoreSinkError,
} from '../../src/scores/index.js';
import {
  LangfuseIngestionError,
  LangfuseRequestError,
  ScoreConfigNameError,
} from '../../src/scores/langfuse/index.js';
import { ContractViolationError } from '../../src/testing/index.js';

// Each error says what it is by name too, for logs and callers that only see `error.name`.
describe('the errors of the scores module', () => {
  it.each([
    ['ScoreMappingError', new ScoreMappingError('m')],
    ['InvalidScoreValueError', new InvalidScoreValueError('m', null, [])],
    ['InvalidScoreError', new InvalidScoreError('m', [])],
    ['ScoreConfigExistsError', new ScoreConfigExistsError('a.b')],
    ['ScoreConfigSyncConflictError', new ScoreConfigSyncConflictError(['a.b'])],
    ['ScoreSinkError', new ScoreSinkError('m', false)],
    ['ContractViolationError', new ContractViolationError('m')],
    ['ScoreConfigFileError', new ScoreConfigFileError('f.jsonl', 1, 'not JSON')],
    ['LangfuseRequestError', new LangfuseRequestError('m', 'GET /x', 500, true)],
    ['LangfuseIngestionError', new LangfuseIngestionError([], 0)],
    ['ScoreConfigNameError', new ScoreConfigNameError('m')],
  ])('are named %s', (name, error) => {
    expect(error.name).toBe(name);
    expect(error).toBeInstanceOf(Error);
  });

  it('state what is wrong with which input', () => {
    expect(new ScoreConfigFileError('f.jsonl', 3, 'not JSON').message).toBe(
      'f.jsonl:3: not a score config entry (not JSON)',
    );
    expect(new ScoreConfigSyncConflictError(['a.b', 'c.d']).message).toBe(
      "score configs cannot be both created and retired: 'a.b', 'c.d'",
    );
  });
});

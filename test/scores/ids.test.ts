import { v5 as uuidv5 } from 'uuid';
import { describe, expect, it } from 'vitest';
import {
  ARTIFACTR_SCORE_NAMESPACE,
  EVALFLOW_SCORE_NAMESPACE,
  EVALR_SCORE_NAMESPACE,
  REFLEXR_SCORE_NAMESPACE,
  ScoreMappingError,
  scoreId,
} from '../../src/scores/index.js';

describe('scoreId', () => {
  it("reproduces the Python libraries' ids in their namespaces", () => {
    const envelope = 'evt_5f3a9c0e1b2d4f6a';
    const config = 'api_answer_quality.rating';
    expect(scoreId(envelope, config, ARTIFACTR_SCORE_NAMESPACE)).toBe(
      'a284ac0c-250a-5971-b4f3-7a771b35060d',
    );
    expect(scoreId(envelope, config, REFLEXR_SCORE_NAMESPACE)).toBe(
      'b2add0dd-8352-56a6-bbf6-b7c01d5243ce',
    );
  });

  it('uses evalflow’s namespace by default, derived from urn:evalflow:scores', () => {
    expect(EVALFLOW_SCORE_NAMESPACE).toBe(uuidv5('urn:evalflow:scores', uuidv5.URL));
    expect(scoreId('e1', 'a.b')).toBe(uuidv5('e1/a.b', EVALFLOW_SCORE_NAMESPACE));
  });

  it("names evalr's namespace as evalr derives it", () => {
    expect(EVALR_SCORE_NAMESPACE).toBe(
      uuidv5('https://github.com/alexnodeland/evalr/scores', uuidv5.URL),
    );
  });

  it('gives one id per envelope and config, the same every time', () => {
    expect(scoreId('e1', 'a.b')).toBe(scoreId('e1', 'a.b'));
    expect(scoreId('e1', 'a.b')).not.toBe(scoreId('e1', 'a.c'));
    expect(scoreId('e1', 'a.b')).not.toBe(scoreId('e2', 'a.b'));
  });

  it('refuses a namespace that is not a UUID, and empty parts', () => {
    expect(() => scoreId('e1', 'a.b', 'artifactr')).toThrow(
      new ScoreMappingError("a score id namespace is a UUID, not 'artifactr'"),
    );
    const emptyPart = new ScoreMappingError('a score id needs an envelope id and a config name');
    expect(() => scoreId('', 'a.b')).toThrow(emptyPart);
    expect(() => scoreId('e1', '')).toThrow(emptyPart);
  });
});

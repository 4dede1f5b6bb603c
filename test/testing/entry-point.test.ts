import * as published from 'evalflow/testing';
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import * as testing from '../../src/testing/index.js';

const testKits = [
  'checkScoreSink',
  'checkScoreConfigStore',
  'CONTRACT_TYPE',
  'ContractVerdict',
  'contractConfigs',
  'contractFeedbackScore',
  'contractVerdict',
  'ContractViolationError',
  'InMemoryScoreSink',
  'InMemoryScoreConfigStore',
];

describe('evalflow/testing', () => {
  it('is the package entry point of src/testing', () => {
    expect(published.storeCaseRunner).toBe(testing.storeCaseRunner);
    expect(published.checkScoreSink).toBe(testing.checkScoreSink);
  });

  it('holds the score contract suites, the in-memory adapters and the conformance runners', () => {
    const names = Object.keys(testing);
    expect(names).toEqual(expect.arrayContaining(testKits));
    expect(names).toEqual(
      expect.arrayContaining([
        'CaseFile',
        'ConformanceCase',
        'readCaseFile',
        'runCaseOnCore',
        'storeCaseRunner',
      ]),
    );
  });

  it('is the only place they are exported from: the package root carries no test kits', () => {
    expect(Object.keys(root).filter((name) => testKits.includes(name))).toEqual([]);
  });
});

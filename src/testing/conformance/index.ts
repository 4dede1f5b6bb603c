// Conformance cases: the core's rules as data, run on the core alone or on a store.
export {
  CaseFile,
  ConformanceCase,
  Expectation,
  type ExpectedOutcome,
  Given,
} from './case-file.js';
export { runCaseOnCore } from './core-runner.js';
export { CaseFileError } from './errors.js';
export { conformanceFeedbackTypes } from './feedback-types.js';
export { type GivenStep, givenCommands } from './given-commands.js';
export { expectationMismatches, subsetMismatches } from './matcher.js';
export { parseCaseFile, readCaseFile } from './read-case-file.js';
export { type OpenCaseStore, type StoreCaseRunner, storeCaseRunner } from './store-runner.js';

// evalflow/testing: what a host needs to test its own adapters and rules. The score contract
// suites (with the subjects they record, for reading a backend back) and the in-memory score
// adapters, implemented in `scores/`, and the conformance cases' schema and runners. Kept off the
// package root so production imports never carry test kits.

export {
  CONTRACT_TYPE,
  ContractVerdict,
  checkScoreConfigStore,
  checkScoreSink,
  contractConfigs,
  contractFeedbackScore,
  contractVerdict,
  type ReadBack,
} from '../scores/contracts/index.js';
export { ContractViolationError } from '../scores/errors.js';
export { InMemoryScoreConfigStore, InMemoryScoreSink } from '../scores/in-memory.js';
export {
  CaseFile,
  CaseFileError,
  ConformanceCase,
  conformanceFeedbackTypes,
  type ExpectedOutcome,
  expectationMismatches,
  type OpenCaseStore,
  parseCaseFile,
  readCaseFile,
  runCaseOnCore,
  type StoreCaseRunner,
  storeCaseRunner,
} from './conformance/index.js';

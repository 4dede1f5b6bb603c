export {
  CONTRACT_TYPE,
  ContractVerdict,
  contractConfigs,
  contractFeedbackScore,
  contractVerdict,
} from './contract-subjects.js';
export { checkScoreConfigStore } from './score-config-store.js';
export { checkScoreSink, type ReadBack } from './score-sink.js';

export { checkScoreConfigStore } from './score-config-store.js';
export { checkScoreSink, type ReadBack } from './score-sink.js';
export {
  CONTRACT_TYPE,
  ContractVerdict,
  contractConfigs,
  contractFeedbackScore,
  contractVerdict,
} from './subjects.js';

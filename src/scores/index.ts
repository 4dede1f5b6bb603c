// The public surface of evalflow's scores: the pure zod → score mapping, `Score`, the ports and
// `syncScoreConfigs`. Pure: zod and uuid only. The Langfuse and OpenTelemetry adapters are their
// own entry points (`evalflow/scores/langfuse`, `evalflow/scores/otel`), so importing this never
// loads an SDK; the contract suites and in-memory adapters are test kits (`evalflow/testing`).

export { type ScoreTypeOptions, scoreConfigs } from './configs/schema-configs.js';
export {
  InvalidScoreError,
  InvalidScoreValueError,
  ScoreConfigExistsError,
  ScoreConfigSyncConflictError,
  ScoreMappingError,
  ScoreSinkError,
} from './errors.js';
export {
  ARTIFACTR_SCORE_NAMESPACE,
  EVALFLOW_SCORE_NAMESPACE,
  EVALR_SCORE_NAMESPACE,
  REFLEXR_SCORE_NAMESPACE,
  scoreId,
} from './model/ids.js';
export {
  parseScore,
  parseScores,
  type Score,
  type ScoreInput,
  ScoreSchema,
  scoreMetadata,
} from './model/score.js';
export {
  isComparable,
  MAX_TEXT,
  SCORE_DATA_TYPES,
  type ScoreConfig,
  type ScoreDataType,
} from './model/score-config.js';
export type { ScoreConfigStore, ScoreReader, ScoreSink } from './ports.js';
export {
  type ScoreConfigsSynced,
  type SyncScoreConfigsOptions,
  syncScoreConfigs,
} from './sync.js';
export { type ScoredValue, type ScoreValue, scoreValues } from './values/score-values.js';
export { scoreValidatedValues } from './values/validated-values.js';
export { scores, type Verdict, type VerdictScoreOptions } from './values/verdicts.js';

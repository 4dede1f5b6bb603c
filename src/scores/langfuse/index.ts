// evalflow's Langfuse adapters (`evalflow/scores/langfuse`), on `@langfuse/client` v5's generated
// API. Every call turns the SDK's retries off, so the caller owns retries, and fails with a
// `ScoreSinkError` that says whether to retry.
export {
  checkConfigName,
  type LangfuseScoreConfig,
  LangfuseScoreConfigStore,
  type LangfuseScoreConfigStoreOptions,
} from './config-store.js';
export {
  type IngestionFailure,
  LangfuseIngestionError,
  LangfuseRequestError,
  ScoreConfigNameError,
} from './errors.js';
export { DEFAULT_MAX_BATCH_BYTES } from './events.js';
export {
  LangfuseScoreReader,
  type LangfuseScoreReaderOptions,
  scoreFromLangfuse,
} from './reader.js';
export { DEFAULT_TIMEOUT_SECONDS, retryAfter } from './requests.js';
export { LangfuseScoreSink, type LangfuseScoreSinkOptions } from './sink.js';

// The app's configuration: the definition every process shares (`defineConfig`, usually in
// `evalflow.config.ts`) and the environment that says where things run (`loadConfig`).
export { builtinApp } from './builtin-app.js';
export {
  type AppConfigInput,
  type AppDefinition,
  defineConfig,
  isAppDefinition,
  type ReviewQueueInput,
  type RuleInput,
  type ScoreConfigDeclaration,
} from './define-config.js';
export {
  type Config,
  DEFAULTS,
  ENVIRONMENT,
  type Environment,
  type EnvironmentVariable,
  LOG_FORMATS,
  type LogFormat,
  loadConfig,
  type StoreLocation,
  type TraceSettings,
  type TracingSettings,
  temporalConnection,
  withSeparatePorts,
} from './environment.js';
export { ConfigFileError, InvalidConfigError } from './errors.js';
export { loadApp, loadConfigFile } from './load-config-file.js';
export {
  ReviewQueueSettingsInput,
  RoutingRuleInput,
  reviewQueueOf,
  routingRuleInputOf,
  routingRuleOf,
} from './review-queue-settings.js';
export { RuleSettingsInput, ruleSettingsOf } from './rule-settings.js';
export { liveScoreConfigDirectory } from './score-config-directory.js';
export type { TemporalConnectionOptions, TemporalSecurity } from './temporal-connection.js';

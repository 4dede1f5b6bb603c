// Running evalflow's worker in a host process: configuration, the engine's dependencies, the
// activities and the worker itself (`evalflow/worker`).
export { type ActivityDeps, createActivities } from '../activities/create-activities.js';
export { type Config, ConfigError, ENVIRONMENT, loadConfig } from './config.js';
export {
  bundleWorkflows,
  createWorker,
  DEFAULT_TASK_QUEUE,
  type WorkerOptions,
} from './create-worker.js';
export { defaultEvaluators, type Engine, openEngine } from './engine.js';

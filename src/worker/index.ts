// Running evalflow's worker in a host process (`evalflow/worker`): the engine's dependencies for
// an app, the activities, and the worker itself.
export { type ActivityDeps, createActivities } from '../activities/create-activities.js';
export { FailureType } from '../activities/failures.js';
export { type ScoreBackend, scoreBackend } from '../config/score-backend.js';
export { followWorkspaces, type RelayOptions, TriggerRelay } from '../relay/index.js';
export { connectWorkerWhenReady } from './connect.js';
export { bundleWorkflows, createWorker, type WorkerOptions } from './create-worker.js';
export { type Engine, type EngineOptions, startEngine } from './engine.js';
export { type EngineDeps, openEngineDeps } from './engine-deps.js';
export { createEvaluatorWorkers, type EvaluatorWorkerOptions } from './evaluator-workers.js';
export {
  startTracing,
  TRACING_WORKFLOW_MODULES,
  type Tracing,
  type TracingOptions,
} from './tracing.js';

// Running evalflow's worker in a host process (`evalflow/worker`): the engine's dependencies for
// an app, the activities, and the worker itself.
export { type ActivityDeps, createActivities } from '../activities/create-activities.js';
export { FailureType } from '../activities/failures.js';
export { bundleWorkflows, createWorker, type WorkerOptions } from './create-worker.js';
export { type Engine, openEngine } from './engine.js';
export { createEvaluatorWorkers, type EvaluatorWorkerOptions } from './evaluator-workers.js';
export { type ScoreBackend, scoreBackend } from './score-backend.js';

// The metrics an operator watches (Prometheus, through prom-client): one registry per process,
// served at `GET /metrics` on a port of its own. The engine's and the API's parts are told what
// happens through the observers, plain ports; this folder is the one that knows Prometheus. And
// what an operator reads: the operations log (pino, as the API's request log), one line per thing
// the engine did.

export { Registry } from 'prom-client';
export { type BudgetFigures, budgetMetrics } from './budgets.js';
export { type MetricsAddress, type MetricsEndpoint, serveMetrics } from './endpoint.js';
export {
  type EngineMetrics,
  type EngineMetricsOptions,
  engineMetrics,
  type RelayFigures,
} from './engine-metrics.js';
export { MetricsPortInUseError } from './errors.js';
export { httpMetrics, UNMATCHED_ROUTE } from './http-metrics.js';
export { textLogStream } from './log-lines.js';
export type {
  ActivityObservers,
  EvaluationObserver,
  EvaluatorVersion,
  HttpObserver,
  MirrorObserver,
  RelayObserver,
} from './observers.js';
export {
  defaultLogFormat,
  type OperationFields,
  type OperationsLog,
  operationsLog,
  silentLog,
} from './operations-log.js';
export { type ReviewQueueFigures, reviewQueueMetrics } from './review-queues.js';

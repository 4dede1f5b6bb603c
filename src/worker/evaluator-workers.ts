import { type NativeConnection, Worker } from '@temporalio/worker';
import type { EvalflowActivities } from '../activities/types.js';
import { DEFAULTS } from '../config/index.js';
import { type EvaluatorLimit, evaluatorTaskQueue } from '../evaluators/index.js';
import type { Tracing } from './tracing.js';

export interface EvaluatorWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  /** The app's task queue; each limited evaluator's queue is named after it. */
  taskQueue?: string;
  /** The limited evaluators' limits, by name (`AppDefinition.evaluatorLimits`). */
  limits: Readonly<Record<string, EvaluatorLimit>>;
  activities: Pick<EvalflowActivities, 'evaluate'>;
  /** The process's tracing (`startTracing`): each evaluation gets its `RunActivity` span. */
  tracing?: Tracing;
}

/**
 * One activity-only worker per limited evaluator, polling its queue: its activity slots are the
 * evaluator's concurrency cap in this process, and the queue's rate limit (enforced by the server
 * for every worker on the queue) its rate. Run them beside the app's worker.
 */
export function createEvaluatorWorkers(options: EvaluatorWorkerOptions): Promise<Worker[]> {
  const taskQueue = options.taskQueue ?? DEFAULTS.taskQueue;
  return Promise.all(
    Object.entries(options.limits).map(([name, { maxConcurrent, perSecond }]) =>
      Worker.create({
        connection: options.connection,
        namespace: options.namespace ?? DEFAULTS.namespace,
        taskQueue: evaluatorTaskQueue(taskQueue, name),
        activities: { evaluate: options.activities.evaluate },
        ...options.tracing?.workerOptions(false),
        ...(maxConcurrent !== undefined
          ? { maxConcurrentActivityTaskExecutions: maxConcurrent }
          : {}),
        ...(perSecond !== undefined ? { maxTaskQueueActivitiesPerSecond: perSecond } : {}),
      }),
    ),
  );
}

import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bundleWorkflowCode,
  type NativeConnection,
  Worker,
  type WorkflowBundle,
  type WorkflowBundleOption,
} from '@temporalio/worker';
import { DEFAULTS } from '../config/index.js';
import { TRACING_WORKFLOW_MODULES, type Tracing } from './tracing.js';

/**
 * The module the worker bundles: every workflow and only pure code. It sits beside this module in
 * the same form, `.ts` when running from the sources and `.js` when running compiled from `dist`.
 */
export const WORKFLOWS_PATH = fileURLToPath(
  new URL(`../workflows/index${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/**
 * Bundles the workflow code once; tests share one bundle across every worker they create. With
 * `tracing`, the bundle holds Temporal's OpenTelemetry workflow interceptors too (a traced
 * worker's bundle must).
 */
export function bundleWorkflows(options: { tracing?: boolean } = {}): Promise<WorkflowBundle> {
  return bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: quietBundlerLogger,
    ...(options.tracing ? { workflowInterceptorModules: [...TRACING_WORKFLOW_MODULES] } : {}),
  });
}

export interface WorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue?: string;
  /** A prebuilt bundle; without one the worker bundles at creation. */
  workflowBundle?: WorkflowBundleOption;
  activities?: object;
  /** Workflows kept in memory between their tasks (default `MAX_CACHED_WORKFLOWS`). */
  maxCachedWorkflows?: number;
  /**
   * The process's tracing (`startTracing`): the worker traces its workflows and activities. A
   * prebuilt bundle must then be bundled with `bundleWorkflows({ tracing: true })`.
   */
  tracing?: Tracing;
}

/**
 * The worker's workflow cache. A cached workflow costs about 0.4 MB (its own copies of the
 * workflow modules, its SDK state), and a paused run would hold its place for days: the SDK's
 * default, sized by the heap (about a thousand on a 4 GB heap), would let paused runs take
 * hundreds of megabytes. Past this many the least recently used leave the cache, and a paused
 * run's next task replays its short history (a handful of events) instead. Runs being evaluated
 * stay cached as long as fewer than this many are in flight at once on the worker.
 */
export const MAX_CACHED_WORKFLOWS = 100;

/**
 * How long a workflow task waits for the worker that last ran its workflow before any worker may
 * take it. After a worker dies, the next task of each of its workflows (the one an activity
 * retried elsewhere completes into) waits this long for the dead worker; the SDK's 10 s would
 * alone break the goal of every verdict within 15 s of a restart. The cost of a short wait: a
 * live worker busy this long loses that workflow from its cache, and another replays it.
 */
export const STICKY_QUEUE_SCHEDULE_TO_START_TIMEOUT = '3 seconds';

export async function createWorker(options: WorkerOptions): Promise<Worker> {
  const tracing = options.tracing;
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? DEFAULTS.namespace,
    taskQueue: options.taskQueue ?? DEFAULTS.taskQueue,
    workflowBundle:
      options.workflowBundle ?? (await bundleWorkflows({ tracing: tracing !== undefined })),
    ...tracing?.workerOptions(true),
    activities: options.activities ?? {},
    stickyQueueScheduleToStartTimeout: STICKY_QUEUE_SCHEDULE_TO_START_TIMEOUT,
    maxCachedWorkflows: options.maxCachedWorkflows ?? MAX_CACHED_WORKFLOWS,
  });
}

// The bundler logs every webpack step at info level; evalflow only wants its warnings and errors.
const noop = () => {};
const quietBundlerLogger = {
  trace: noop,
  debug: noop,
  info: noop,
  log: noop,
  warn: (message: string, meta?: Record<string, unknown>) => console.warn(message, meta ?? ''),
  error: (message: string, meta?: Record<string, unknown>) => console.error(message, meta ?? ''),
};

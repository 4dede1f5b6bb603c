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

/**
 * The module the worker bundles: every workflow and only pure code. It sits beside this module in
 * the same form, `.ts` when running from the sources and `.js` when running compiled from `dist`.
 */
export const WORKFLOWS_PATH = fileURLToPath(
  new URL(`../workflows/index${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/** Bundles the workflow code once; tests share one bundle across every worker they create. */
export function bundleWorkflows(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietBundlerLogger });
}

export interface WorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue?: string;
  /** A prebuilt bundle; without one the worker bundles at creation. */
  workflowBundle?: WorkflowBundleOption;
  activities?: object;
}

export async function createWorker(options: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace ?? DEFAULTS.namespace,
    taskQueue: options.taskQueue ?? DEFAULTS.taskQueue,
    workflowBundle: options.workflowBundle ?? (await bundleWorkflows()),
    activities: options.activities ?? {},
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

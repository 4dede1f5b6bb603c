import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, type Worker, type WorkflowBundleOption } from '@temporalio/worker';
import { inject } from 'vitest';
import { executableOption } from '../../src/cli/supervision/temporal-binaries.js';
import { createWorker } from '../../src/worker/create-worker.js';

// Workers log every state change at INFO; tests want warnings and errors only. Once per process.
Runtime.install({ logger: new DefaultLogger('WARN') });

/** The workflow bundle built once for this test run by the global setup. */
export function workflowBundle(): WorkflowBundleOption {
  return { codePath: inject('workflowBundlePath') };
}

/** The Java time-skipping test server: for long timers and waits. */
export function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: executableOption(inject('temporalTestServer')) },
  });
}

/** The CLI dev server: for updates, update-with-start and entity workflows. */
export function devServerEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createLocal({
    server: { executable: executableOption(inject('temporalCli')), ip: '127.0.0.1' },
  });
}

let taskQueues = 0;

/** A task queue no other test in this file uses, so workers never steal each other's tasks. */
export function uniqueTaskQueue(name = 'test'): string {
  taskQueues += 1;
  return `${name}-${process.pid}-${taskQueues}`;
}

/** A worker on the shared bundle, for `worker.runUntil(...)`. */
export function testWorker(
  env: TestWorkflowEnvironment,
  taskQueue: string,
  activities: object = {},
): Promise<Worker> {
  return createWorker({
    connection: env.nativeConnection,
    namespace: env.namespace ?? 'default',
    taskQueue,
    workflowBundle: workflowBundle(),
    activities,
  });
}

const historiesDir = fileURLToPath(new URL('../workflows/histories/', import.meta.url));

/**
 * With EVALFLOW_RECORD_HISTORIES=1, saves a workflow's history as the fixture the replay test
 * replays (`test/workflows/histories/{name}.json`). Record again only on purpose: a change that
 * makes old histories fail to replay would break runs already in flight.
 */
export async function recordHistory(handle: WorkflowHandle, name: string): Promise<void> {
  if (process.env.EVALFLOW_RECORD_HISTORIES !== '1') return;
  mkdirSync(historiesDir, { recursive: true });
  writeFileSync(join(historiesDir, `${name}.json`), historyToJSON(await handle.fetchHistory()));
}

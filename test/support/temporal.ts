import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import type { WorkflowHandle } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import {
  DefaultLogger,
  type LogEntry,
  Runtime,
  type Worker,
  type WorkflowBundleOption,
} from '@temporalio/worker';
import { inject } from 'vitest';
import { executableOption } from '../../src/cli/supervision/temporal-binaries.js';
import { createWorker } from '../../src/worker/create-worker.js';

// Workers log every state change at INFO; tests want warnings and errors only, and of those not
// the ones a test provokes on purpose (an activity failing against an injected fault, say): a
// test names them with `expectWorkerLog` and may read them. Once per process (each test file).
const printed = new DefaultLogger('WARN');
const expectations: { pattern: RegExp; entries: LogEntry[] }[] = [];
Runtime.install({
  logger: new DefaultLogger('WARN', (entry) => {
    const text = `${entry.message} ${inspect(entry.meta, { depth: 4 })}`;
    const expected = expectations.find(({ pattern }) => pattern.test(text));
    if (expected) expected.entries.push(entry);
    else printed.log(entry.level, entry.message, entry.meta);
  }),
  // The SDK's native side logs through the same logger, so its warnings are routed alike.
  telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
});

/**
 * Worker log entries (warnings and errors) that match `pattern` are expected by this test file:
 * kept in the returned list, which fills as they come, instead of printed. Every other entry is
 * printed as before.
 */
export function expectWorkerLog(pattern: RegExp): readonly LogEntry[] {
  const entries: LogEntry[] = [];
  expectations.push({ pattern, entries });
  return entries;
}

/** The workflow bundle built once for this test run by the global setup. */
export function workflowBundle(): WorkflowBundleOption {
  return { codePath: inject('workflowBundlePath') };
}

let olderServerExpected = false;

/** The Java time-skipping test server: for long timers and waits. */
export function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  // It is older than the SDK expects, which warns once per worker that a failed activity's
  // heartbeat details may be lost; no test here reads them.
  if (!olderServerExpected) expectWorkerLog(/heartbeat details may be lost on failure/);
  olderServerExpected = true;
  return withStartRetries(() =>
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: executableOption(inject('temporalTestServer')) },
    }),
  );
}

/**
 * The CLI dev server: for updates, update-with-start and entity workflows. It prints its errors
 * (`logLevel`; `never` for a test that provokes them on purpose) and nothing else: no banner
 * (`--output none`), no warnings.
 */
export function devServerEnvironment(
  options: { logLevel?: 'error' | 'never' } = {},
): Promise<TestWorkflowEnvironment> {
  return withStartRetries(() =>
    TestWorkflowEnvironment.createLocal({
      server: {
        executable: executableOption(inject('temporalCli')),
        ip: '127.0.0.1',
        log: { format: 'pretty', level: options.logLevel ?? 'error' },
        extraArgs: ['--output', 'none'],
      },
    }),
  );
}

const START_ATTEMPTS = 3;

/**
 * The SDK gives a server 5 s to accept connections (fixed in its native core) and then kills it.
 * A loaded two-core CI machine has missed that window once; a server that fails for any other
 * reason fails every attempt, and each retry is printed.
 */
export async function withStartRetries<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (attempt === START_ATTEMPTS || !/did not start within/.test(String(error))) throw error;
      console.warn(`Temporal server start, attempt ${attempt} of ${START_ATTEMPTS}: ${error}`);
    }
  }
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

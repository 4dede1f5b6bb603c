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
import { expect, inject } from 'vitest';
import { createWorker } from '../../src/worker/create-worker.js';
import { evaluateRunWorkflowId } from '../../src/workflows/evaluate-run-messages.js';
import { namespaceOf, startTimeSkippingServer } from './temporal-servers.js';

// Workers log every state change at INFO; tests want warnings and errors only, and of those not
// the ones a test provokes on purpose (an activity failing against an injected fault, say): a
// test names them with `expectWorkerLog` and may read them, as it may the INFO lines a workflow
// writes for the operator (a batch paused by its budget). Once per process (each test file).
const printed = new DefaultLogger('WARN');
const expectations: { pattern: RegExp; entries: LogEntry[] }[] = [];
Runtime.install({
  logger: new DefaultLogger('INFO', (entry) => {
    const text = `${entry.message} ${inspect(entry.meta, { depth: 4 })}`;
    const expected = expectations.find(({ pattern }) => pattern.test(text));
    if (expected) expected.entries.push(entry);
    else printed.log(entry.level, entry.message, entry.meta);
  }),
  // The SDK's native side logs through the same logger, so its warnings are routed alike.
  telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
});

/**
 * Worker log entries (warnings and errors, and INFO lines) that match `pattern` are expected by
 * this test file: kept in the returned list, which fills as they come, instead of printed. Every
 * other entry is printed as before (warnings and errors only).
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

/**
 * The Java time-skipping test server, for long timers and waits: one of the file's own (skipping
 * time is global to a server), started and waited on here, so a loaded machine's slow start only
 * takes longer. `teardown` stops it.
 */
export async function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  // It is older than the SDK expects, which warns once per worker that a failed activity's
  // heartbeat details may be lost; no test here reads them.
  if (!olderServerExpected) expectWorkerLog(/heartbeat details may be lost on failure/);
  olderServerExpected = true;
  const binary = inject('temporalTestServer');
  if (!('path' in binary)) throw new Error('npm run setup installs the temporal-test-server');
  const server = await startTimeSkippingServer(binary.path);
  // The SDK starts a server itself only within a fixed 5 s; for one started elsewhere its public
  // factory gives no time skipping, so its general one is called as createTimeSkipping calls it.
  const env: TestWorkflowEnvironment = await (
    TestWorkflowEnvironment as unknown as {
      create(options: object): Promise<TestWorkflowEnvironment>;
    }
  ).create({
    server: { type: 'existing' },
    address: server.address,
    namespace: 'default',
    supportsTimeSkipping: true,
  });
  const teardown = env.teardown.bind(env);
  return Object.assign(env, {
    async teardown() {
      await teardown();
      await server.stop();
    },
  });
}

/**
 * The run's shared CLI dev server (for updates, update-with-start and entity workflows), on this
 * file's own namespace, so files running side by side never see each other's workflows.
 */
export function devServerEnvironment(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createFromExistingServer({
    address: inject('sharedDevServerAddress'),
    namespace: fileNamespace(),
  });
}

/** This test file's namespace on the shared dev server. */
export function fileNamespace(): string {
  const { testPath } = expect.getState();
  if (testPath === undefined) throw new Error('fileNamespace() is for a test file');
  return namespaceOf(testPath);
}

/** What an engine process needs to reach this file's namespace of the shared dev server. */
export function sharedTemporalEnv(env: TestWorkflowEnvironment): {
  TEMPORAL_ADDRESS: string;
  TEMPORAL_NAMESPACE: string;
} {
  return { TEMPORAL_ADDRESS: env.address, TEMPORAL_NAMESPACE: env.namespace ?? 'default' };
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

/**
 * A workspace's ended run relayed to its workflow and evaluated to the end, on a worker of the
 * engine's activities (`relay` is the engine's relay of the workspace).
 */
export async function evaluatedToTheEnd(
  env: TestWorkflowEnvironment,
  engine: { activities: object; store: { id: string }; relay: RelayOf },
  taskQueue: string,
  workspaceId: string,
  runId: string,
): Promise<void> {
  const relay = engine.relay(env.client, taskQueue, workspaceId);
  const worker = await testWorker(env, taskQueue, engine.activities);
  await worker.runUntil(async () => {
    await relay.drain();
    await env.client.workflow
      .getHandle(evaluateRunWorkflowId(engine.store.id, workspaceId, runId))
      .result();
  });
}

type RelayOf = (
  client: TestWorkflowEnvironment['client'],
  taskQueue: string,
  workspaceId: string,
) => { drain(): Promise<unknown> };

import { Client, type Connection } from '@temporalio/client';
import type { NativeConnection, Worker, WorkflowBundleOption } from '@temporalio/worker';
import type { AppDefinition, Config, TemporalConnectionOptions } from '../config/index.js';
import { scoreSinkName } from '../config/score-backend.js';
import { evaluatorTaskQueues } from '../evaluators/index.js';
import {
  defaultLogFormat,
  engineMetrics,
  type MetricsEndpoint,
  type OperationsLog,
  operationsLog,
  Registry,
  serveMetrics,
} from '../metrics/index.js';
import { followWorkspaces, RELAY_CURSOR } from '../relay/index.js';
import { connectClientWhenReady } from '../workflow-clients/temporal-ready.js';
import { connectWorkerWhenReady } from './connect.js';
import { createWorker } from './create-worker.js';
import { type EngineDeps, openEngineDeps } from './engine-deps.js';
import { createEvaluatorWorkers } from './evaluator-workers.js';
import { inFlight, tellInFlight } from './in-flight.js';
import { type StartPhases, startPhases } from './start-phases.js';
import { installTemporalRuntime } from './temporal-runtime.js';
import type { Tracing } from './tracing.js';
import {
  type CachedBundle,
  cachedWorkflowBundle,
  prebuiltWorkflowBundle,
} from './workflow-bundle-cache.js';

// The engine: the whole worker process of an app in one call, as `evalflow start` and
// `evalflow worker` run it and as a host that embeds it runs it. Its parts are the store and
// score sink (`openEngineDeps`), the app's worker, one activity-only worker per limited
// evaluator, and a trigger relay per workspace (under the workspace's lease). With a metrics port
// (`config.metrics`) it serves `GET /metrics`: its own figures and Temporal's worker metrics.

export interface EngineOptions {
  /** The environment's settings (`loadConfig()`): the store, the sink, the task queue. */
  config: Config;
  app: AppDefinition;
  /** Where Temporal is; the engine waits for it to answer (up to 60 s). */
  temporal: TemporalConnectionOptions;
  /** A run paused longer than this is evaluated as it stands and marked abandoned (30 days). */
  abandonAfterMs?: number;
  /**
   * How often the relays count the processes and look for workspaces no one relays (2 s); a new
   * workspace is taken up at once, by word of its first append.
   */
  relayPollMs?: number;
  /**
   * A prebuilt workflow bundle (tests bundle once); without one the engine takes the package's
   * prebuilt bundle (`npm run build`), else the one cached under `home`, else bundles at start. With `tracing` it
   * must be bundled with `bundleWorkflows({ tracing: true })`.
   */
  workflowBundle?: WorkflowBundleOption;
  /**
   * The state folder (`.evalflow/`): the workflow bundle is cached in it between starts. Without
   * one (and without `workflowBundle`) the engine bundles at every start.
   */
  home?: string;
  /**
   * The process's tracing (`startTracing`, when `config.tracing` is set): its workers and the
   * relays' client take Temporal's OpenTelemetry interceptors. The caller shuts it down.
   */
  tracing?: Tracing;
  /** Told what the engine does and waits for, one line each (default: stdout, `evalflow: …`). */
  log?: (line: string) => void;
  /**
   * Told what the engine did that an operator follows: what it resumed at start, evaluations
   * started and finished, batches, budget pauses, rules set and versions promoted, and Temporal's
   * warnings (default: stdout, as EVALFLOW_LOG_FORMAT says, else text on a terminal, JSON
   * otherwise).
   */
  operations?: OperationsLog;
}

/** A running engine; it stops on `stop()`, or by itself when one of its workers fails. */
export interface Engine {
  /** The store, score sink and activities it runs on. */
  readonly deps: EngineDeps;
  /**
   * Its metrics: the registry (an API in the same process adds its own to it, for one endpoint)
   * and the endpoint's URL, null when `config.metrics` names no port.
   */
  readonly metrics: { readonly registry: Registry; readonly url: string | null };
  /** Settles when every part has stopped: rejected with the first worker's failure. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

/** Starts the engine of `app`: resolves once its workers poll and its relays follow the store. */
export async function startEngine(options: EngineOptions): Promise<Engine> {
  const { config, app } = options;
  const log = options.log ?? ((line: string) => console.log(`evalflow: ${line}`));
  const operations =
    options.operations ?? operationsLog({ format: config.api.logFormat ?? defaultLogFormat() });
  const phases = startPhases(operations);
  // The bundle is read or built while the store opens and Temporal answers.
  const bundled = workflowBundleOf(options, phases);
  const registry = new Registry();
  const metrics = engineMetrics(registry, {
    evaluators: app.evaluators.list(),
    sink: scoreSinkName(config),
  });
  // The endpoint first: a port in use stops the start before anything opens. Temporal's part of
  // it is read through once its runtime is installed (below).
  let temporalMetrics: (() => Promise<string>) | null = null;
  let endpoint: MetricsEndpoint | null = null;
  if (config.metrics.port !== null) {
    endpoint = await serveMetrics(
      registry,
      { host: config.metrics.host, port: config.metrics.port },
      [async () => (temporalMetrics === null ? '' : temporalMetrics())],
    );
  }
  // The store next: a second engine on a SQLite store is refused before any wait for Temporal.
  const deps = await openEngineDeps(
    config,
    app,
    log,
    { evaluations: metrics.evaluations, mirror: metrics.mirror },
    operations,
  ).catch(async (error: unknown) => {
    await endpoint?.close();
    throw error;
  });
  phases.ended('store');
  // Then Temporal's runtime, before the first connection as it must be, and only now: an
  // installed runtime keeps the process alive until a connection made on it closes, so a start
  // refused above ends at once.
  temporalMetrics = await installTemporalRuntime({
    operations,
    metrics: config.metrics.port !== null,
    log,
  }).catch(async (error: unknown) => {
    await deps.close();
    await endpoint?.close();
    throw error;
  });
  const { created, archived } = deps.scoreConfigs;
  if (created.length + archived.length > 0) {
    log(`score configs created ${created.length}, archived ${archived.length}`);
  }
  let connection: NativeConnection | undefined;
  let clientConnection: Connection | undefined;
  let workers: Worker[];
  try {
    connection = await connectWorkerWhenReady(options.temporal, { onWait: log });
    phases.ended('temporal');
    workers = await createWorkers(options, connection, deps.activities, await bundled);
    phases.ended('workers');
    clientConnection = await connectClientWhenReady(options.temporal);
  } catch (error) {
    await clientConnection?.close().catch(() => {});
    await connection?.close().catch(() => {});
    await deps.close();
    await endpoint?.close();
    throw error;
  }
  const client = new Client({
    connection: clientConnection,
    namespace: config.namespace,
    ...(options.tracing ? { interceptors: options.tracing.clientInterceptors } : {}),
  });
  // Counted before the workers poll, so what they take up is what was there.
  await tellInFlight(operations, () => inFlight(client, config.taskQueue, deps.store));
  const relays = followWorkspaces({
    store: deps.store,
    client,
    taskQueue: config.taskQueue,
    rules: app.rules,
    reviewQueues: app.reviewQueues,
    onRelay: log,
    observer: metrics.relay,
    log: operations,
    evaluatorTaskQueues: evaluatorTaskQueues(config.taskQueue, app.evaluatorLimits),
    evaluators: app.evaluators,
    ...relayTimings(options),
  });
  metrics.watchRelays({
    relaying: () => relays.relaying().length,
    backlog: () => deps.store.backlog(RELAY_CURSOR),
  });
  // One worker stopping (by failing, say) stops the others, so the engine ends whole.
  const stopWorkers = () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  };
  const running = workers.map((w) => w.run().finally(stopWorkers));
  phases.ended('polling');
  const done = Promise.allSettled(running).then(async (settled) => {
    await relays.close();
    // Before the store closes, so no scrape reads a closed one.
    await endpoint?.close();
    await deps.close();
    await clientConnection.close();
    await connection.close();
    const failed = settled.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
  });
  return {
    deps,
    metrics: { registry, url: endpoint?.url ?? null },
    done,
    async stop() {
      stopWorkers();
      await done.catch(() => {});
    },
  };
}

/** The app's worker, and one per limited evaluator on its own task queue. */
async function createWorkers(
  { config, app, tracing }: EngineOptions,
  connection: NativeConnection,
  activities: EngineDeps['activities'],
  workflowBundle: WorkflowBundleOption | undefined,
): Promise<Worker[]> {
  const on = { connection, namespace: config.namespace, taskQueue: config.taskQueue };
  const traced = tracing ? { tracing } : {};
  const worker = await createWorker({
    ...on,
    activities,
    ...(workflowBundle ? { workflowBundle } : {}),
    ...traced,
  });
  const limited = await createEvaluatorWorkers({
    ...on,
    limits: app.evaluatorLimits,
    activities,
    ...traced,
  });
  return [worker, ...limited];
}

/** The relays' timings the options set (the tests' and the demo's), else their defaults. */
const relayTimings = ({ abandonAfterMs, relayPollMs }: EngineOptions) => ({
  ...(abandonAfterMs !== undefined ? { abandonAfterMs } : {}),
  ...(relayPollMs !== undefined ? { pollMs: relayPollMs } : {}),
});

/**
 * The workflow bundle the engine's worker runs: the one it was given, else the prebuilt or cached
 * one (`cachedWorkflowBundle`), else none (the worker bundles). Its phase is logged when it is
 * ready, measured from the start; a failure is the start's, when it is awaited.
 */
function workflowBundleOf(
  options: EngineOptions,
  phases: StartPhases,
): Promise<WorkflowBundleOption | undefined> {
  if (options.workflowBundle) return Promise.resolve(options.workflowBundle);
  const tracing = options.tracing !== undefined;
  const began = performance.now();
  if (options.home === undefined) {
    // A host without a state folder: the package's prebuilt bundle, else the worker bundles.
    const code = prebuiltWorkflowBundle(tracing);
    if (code !== null) phases.endedAlongside('workflow_bundle', began, { source: 'prebuilt' });
    return Promise.resolve(code === null ? undefined : { code });
  }
  const ready = cachedWorkflowBundle({ home: options.home, tracing }).then(
    ({ code, source }: CachedBundle) => {
      phases.endedAlongside('workflow_bundle', began, { source });
      return { code };
    },
  );
  // Awaited after the store and Temporal: a failure before then must not go unhandled.
  ready.catch(() => {});
  return ready;
}

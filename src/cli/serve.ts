import { Client, type Connection } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import { buildApi } from '../api/index.js';
import { followWorkspaces } from '../client/follow-workspaces.js';
import {
  type AppDefinition,
  type Config,
  liveScoreConfigDirectory,
  type TemporalConnectionOptions,
} from '../config/index.js';
import { evaluatorTaskQueues } from '../evaluators/index.js';
import { openStore, type Store } from '../store/index.js';
import { createWorker } from '../worker/create-worker.js';
import { type Engine, openEngine } from '../worker/engine.js';
import { createEvaluatorWorkers } from '../worker/evaluator-workers.js';
import { scoreBackend } from '../worker/score-backend.js';
import { connectClientWhenReady, connectWorkerWhenReady } from './temporal-ready.js';

// The two long-running services, each startable alone (`evalflow worker`, `evalflow api`) or
// together (`evalflow start`).

export interface Service {
  /** Settles when the service has stopped, by `stop()` or by failing. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

export interface RelaySettings {
  /** A run paused longer than this is evaluated as it stands and marked abandoned (30 days). */
  abandonAfterMs?: number;
  /** How often the relays look for new workspaces (2 s). */
  pollMs?: number;
}

const say = (line: string) => console.log(`evalflow: ${line}`);

/** The worker and a trigger relay per workspace, on the Temporal `temporal` reaches. */
export async function serveWorker(
  config: Config,
  app: AppDefinition,
  temporal: TemporalConnectionOptions,
  relay: RelaySettings = {},
): Promise<Service & { engine: Engine }> {
  // The engine first: a second engine on a SQLite store is refused before any wait for Temporal.
  const engine = await openEngine(config, app);
  const { created, archived } = engine.scoreConfigs;
  if (created.length + archived.length > 0) {
    console.log(`evalflow: score configs created ${created.length}, archived ${archived.length}`);
  }
  let connection: NativeConnection | undefined;
  let clientConnection: Connection | undefined;
  let workers: Worker[];
  try {
    connection = await connectWorkerWhenReady(temporal, { onWait: say });
    const worker = await createWorker({
      connection,
      namespace: config.namespace,
      taskQueue: config.taskQueue,
      activities: engine.activities,
    });
    const limited = await createEvaluatorWorkers({
      connection,
      namespace: config.namespace,
      taskQueue: config.taskQueue,
      limits: app.evaluatorLimits,
      activities: engine.activities,
    });
    workers = [worker, ...limited];
    clientConnection = await connectClientWhenReady(temporal);
  } catch (error) {
    await clientConnection?.close().catch(() => {});
    await connection?.close().catch(() => {});
    await engine.close();
    throw error;
  }
  const relays = followWorkspaces({
    store: engine.store,
    client: new Client({ connection: clientConnection, namespace: config.namespace }),
    taskQueue: config.taskQueue,
    rules: app.rules,
    onRelay: (line) => console.log(line),
    evaluatorTaskQueues: evaluatorTaskQueues(config.taskQueue, app.evaluatorLimits),
    ...relay,
  });
  // One worker stopping (by failing, say) stops the others, so the service ends whole.
  const stopWorkers = () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  };
  const done = Promise.allSettled(workers.map((w) => w.run().finally(stopWorkers))).then(
    async (settled) => {
      await relays.close();
      await engine.close();
      await clientConnection.close();
      await connection.close();
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
  );
  return {
    engine,
    done,
    async stop() {
      stopWorkers();
      await done.catch(() => {});
    },
  };
}

/** The HTTP API on `config.api`, on the Temporal `temporal` reaches; its own store unless given. */
export async function serveApi(
  config: Config,
  app: AppDefinition,
  temporal: TemporalConnectionOptions,
  shared?: { store: Store; onScoreConfigsChanged(): void },
  /** Whether it logs each request as a JSON line on stdout (default true). */
  logRequests = true,
): Promise<Service & { url: string }> {
  const { configStore } = scoreBackend(config);
  const directory = shared ? null : liveScoreConfigDirectory(app, configStore);
  const store =
    shared?.store ??
    (await openStore({
      ...app,
      scoreConfigs: directory ?? undefined,
      ...config.store,
      onWait: say,
    }));
  const connection = await connectClientWhenReady(temporal, { onWait: say }).catch(
    async (error: unknown) => {
      if (!shared) await store.close();
      throw error;
    },
  );
  const api = await buildApi({
    store,
    app,
    temporal: {
      client: new Client({ connection, namespace: config.namespace }),
      taskQueue: config.taskQueue,
    },
    scoreConfigs: configStore,
    onScoreConfigsChanged: () => (shared ? shared.onScoreConfigsChanged() : directory?.forget()),
    bodyLimitBytes: config.api.bodyLimitBytes,
    rateLimitPerMinute: config.api.rateLimitPerMinute,
    ...(logRequests ? {} : { logger: false }),
  });
  const url = await api.listen({ host: config.api.host, port: config.api.port });
  let stopped: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  let stopping: Promise<void> | null = null;
  return {
    url,
    done,
    stop() {
      stopping ??= (async () => {
        await api.close();
        if (!shared) await store.close();
        await connection.close();
        stopped();
      })();
      return stopping;
    },
  };
}

/** Stops the services, last started first, on SIGINT or SIGTERM, or when any stops by itself. */
export async function runUntilStopped(services: Service[]): Promise<void> {
  let stopping: Promise<void> | null = null;
  const stopAll = () => {
    stopping ??= (async () => {
      for (const service of [...services].reverse()) await service.stop();
    })();
    return stopping;
  };
  process.once('SIGINT', () => void stopAll());
  process.once('SIGTERM', () => void stopAll());
  await Promise.race(services.map((service) => service.done));
  await stopAll();
}

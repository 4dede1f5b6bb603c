import { Client, type ClientInterceptors } from '@temporalio/client';
import {
  type AppDefinition,
  type Config,
  liveScoreConfigDirectory,
  type TemporalConnectionOptions,
} from '../config/index.js';
import { scoreBackend } from '../config/score-backend.js';
import { usdOf } from '../core/index.js';
import {
  budgetMetrics,
  httpMetrics,
  Registry,
  reviewQueueMetrics,
  serveMetrics,
} from '../metrics/index.js';
import { openStore, type Store } from '../store/index.js';
import { connectClientWhenReady } from '../workflow-clients/temporal-ready.js';
import { budgetsNow } from './budgets-now.js';
import { buildApi } from './build-api.js';
import { uiBuildProblem } from './plugins/ui-page.js';

// The API process: the store (its own, or an engine's in the same process), a Temporal client
// for reviews and re-evaluation, and the HTTP API listening on `config.api`. With a metrics port
// (`config.metrics`) it serves `GET /metrics` there, never on the API's port; beside an engine it
// adds its figures to the engine's registry instead, so the process has one endpoint.

export interface ApiProcessOptions {
  config: Config;
  app: AppDefinition;
  /** Where Temporal is; the API waits for it to answer (up to 60 s). */
  temporal: TemporalConnectionOptions;
  /**
   * An engine's store in the same process, how to make its checks read configs afresh, and the
   * engine's metrics registry, which the API's metrics join.
   */
  shared?: { store: Store; onScoreConfigsChanged(): void; metrics?: Registry };
  /** Whether it logs each request as a JSON line on stdout (default true). */
  logRequests?: boolean;
  /**
   * Interceptors for its Temporal client: the process's tracing's (`Tracing.clientInterceptors`),
   * so each workflow it starts or signals (a trace's `ingestTrace`, a review) gets a span.
   */
  clientInterceptors?: ClientInterceptors;
  /** Told what it waits for, one line each (default: stdout, `evalflow: …`). */
  log?: (line: string) => void;
}

/** A listening API; it stops on `stop()`. */
export interface ApiProcess {
  readonly url: string;
  /** Its own metrics endpoint; null when it has none (no port, or an engine's shared). */
  readonly metricsUrl: string | null;
  /** Why the reviewers' page at /ui/ cannot be served (its build is missing); null when it is. */
  readonly pageProblem: string | null;
  /** Settles when it has stopped. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

export async function startApi(options: ApiProcessOptions): Promise<ApiProcess> {
  const { config, app, shared } = options;
  const log = options.log ?? ((line: string) => console.log(`evalflow: ${line}`));
  const { configStore } = scoreBackend(config);
  const directory = shared ? null : liveScoreConfigDirectory(app, configStore);
  const store =
    shared?.store ??
    (await openStore({
      ...app,
      scoreConfigs: directory ?? undefined,
      ...config.store,
      onWait: log,
    }));
  const registry = shared?.metrics ?? new Registry();
  reviewQueueMetrics(registry, async () =>
    (await store.reviewQueues.figures(new Date())).map((f) => ({
      queue: f.queue_id,
      depth: f.depth,
      leased: f.leased,
    })),
  );
  budgetMetrics(registry, async () =>
    (await budgetsNow(store, app.budgets, undefined, Date.now())).map((b) => ({
      budget: b.budget.budgetId,
      scope: b.scope,
      limitUsd: b.budget.limitUsd,
      spentUsd: usdOf(b.spentNanos),
      reservedUsd: usdOf(b.reservedNanos),
    })),
  );
  const closeStore = async () => {
    if (!shared) await store.close();
  };
  const endpoint =
    shared?.metrics === undefined && config.metrics.port !== null
      ? await serveMetrics(registry, {
          host: config.metrics.host,
          port: config.metrics.port,
        }).catch(async (error: unknown) => {
          await closeStore();
          throw error;
        })
      : null;
  const connection = await connectClientWhenReady(options.temporal, { onWait: log }).catch(
    async (error: unknown) => {
      await endpoint?.close();
      await closeStore();
      throw error;
    },
  );
  const api = await buildApi({
    store,
    app,
    temporal: {
      client: new Client({
        connection,
        namespace: config.namespace,
        ...(options.clientInterceptors ? { interceptors: options.clientInterceptors } : {}),
      }),
      taskQueue: config.taskQueue,
    },
    scoreConfigs: configStore,
    onScoreConfigsChanged: () => (shared ? shared.onScoreConfigsChanged() : directory?.forget()),
    bodyLimitBytes: config.api.bodyLimitBytes,
    rateLimitPerMinute: config.api.rateLimitPerMinute,
    traces: config.traces,
    metrics: httpMetrics(registry),
    logger:
      options.logRequests === false
        ? false
        : { format: config.api.logFormat ?? (process.stdout.isTTY ? 'text' : 'json') },
  });
  const url = await api
    .listen({ host: config.api.host, port: config.api.port })
    .catch(async (error: unknown) => {
      await api.close();
      await endpoint?.close();
      await closeStore();
      await connection.close();
      throw error;
    });
  let stopped: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    stopped = resolve;
  });
  let stopping: Promise<void> | null = null;
  return {
    url,
    metricsUrl: endpoint?.url ?? null,
    pageProblem: uiBuildProblem(),
    done,
    stop() {
      stopping ??= (async () => {
        await api.close();
        await endpoint?.close();
        await closeStore();
        await connection.close();
        stopped();
      })();
      return stopping;
    },
  };
}

import { Client } from '@temporalio/client';
import {
  type AppDefinition,
  type Config,
  liveScoreConfigDirectory,
  type TemporalConnectionOptions,
} from '../config/index.js';
import { scoreBackend } from '../config/score-backend.js';
import { openStore, type Store } from '../store/index.js';
import { connectClientWhenReady } from '../workflow-clients/temporal-ready.js';
import { buildApi } from './build-api.js';

// The API process: the store (its own, or an engine's in the same process), a Temporal client
// for reviews and re-evaluation, and the HTTP API listening on `config.api`.

export interface ApiProcessOptions {
  config: Config;
  app: AppDefinition;
  /** Where Temporal is; the API waits for it to answer (up to 60 s). */
  temporal: TemporalConnectionOptions;
  /** An engine's store in the same process, and how to make its checks read configs afresh. */
  shared?: { store: Store; onScoreConfigsChanged(): void };
  /** Whether it logs each request as a JSON line on stdout (default true). */
  logRequests?: boolean;
  /** Told what it waits for, one line each (default: stdout, `evalflow: …`). */
  log?: (line: string) => void;
}

/** A listening API; it stops on `stop()`. */
export interface ApiProcess {
  readonly url: string;
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
  const connection = await connectClientWhenReady(options.temporal, { onWait: log }).catch(
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
    logger:
      options.logRequests === false
        ? false
        : { format: config.api.logFormat ?? (process.stdout.isTTY ? 'text' : 'json') },
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

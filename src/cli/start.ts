import { Client, Connection } from '@temporalio/client';
import { followWorkspaces } from '../client/follow-workspaces.js';
import { type Config, loadApp } from '../config/index.js';
import { createWorker } from '../worker/create-worker.js';
import { openEngine } from '../worker/engine.js';
import { connectWhenReady, type DevServer, startDevServer } from './dev-server.js';
import { describeBinaries, ensureTemporalBinaries } from './setup.js';

export interface StartOptions {
  port: number;
  uiPort: number;
  /** The app definition file (`--config`); else EVALFLOW_CONFIG, else `./evalflow.config.ts`. */
  config?: string;
}

/**
 * The engine on embedded defaults: the Temporal CLI dev server (its SQLite file under
 * `.evalflow/`), unless TEMPORAL_ADDRESS names a cluster, and a worker. SIGINT or SIGTERM stops
 * the worker, then the server.
 */
export async function start(config: Config, options: StartOptions): Promise<void> {
  // The app first: a config that fails to load stops startup before anything else starts.
  const { app, source } = await loadApp(config, { file: options.config });
  console.log(`evalflow: app from ${source}`);
  let server: DevServer | null = null;
  let address = config.temporalAddress;
  let ui: string | null = null;
  if (!address) {
    const binaries = await ensureTemporalBinaries();
    console.log(describeBinaries(binaries));
    if (binaries.cli.source === 'sdk-download') {
      throw new Error('npm start needs the temporal CLI on disk; set TEMPORAL_CLI_PATH');
    }
    server = await startDevServer({
      cliPath: binaries.cli.path,
      namespace: config.namespace,
      port: options.port,
      uiPort: options.uiPort,
    });
    address = server.address;
    ui = `http://127.0.0.1:${options.uiPort}`;
  }
  try {
    const connection = await connectWhenReady(address, server?.child ?? null);
    const engine = await openEngine(config, app);
    const { created, archived } = engine.scoreConfigs;
    if (created.length + archived.length > 0) {
      console.log(`evalflow: score configs created ${created.length}, archived ${archived.length}`);
    }
    const worker = await createWorker({
      connection,
      namespace: config.namespace,
      taskQueue: config.taskQueue,
      activities: engine.activities,
    });
    const clientConnection = await Connection.connect({ address });
    const relays = followWorkspaces({
      store: engine.store,
      client: new Client({ connection: clientConnection, namespace: config.namespace }),
      taskQueue: config.taskQueue,
      rules: app.rules,
    });
    const stop = () => worker.shutdown();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    console.log(
      `evalflow: worker polling task queue ${config.taskQueue} on Temporal at ${address}` +
        (ui ? `; Temporal UI at ${ui}` : ''),
    );
    try {
      await worker.run();
    } finally {
      await relays.close();
      await engine.close();
      await clientConnection.close();
      await connection.close();
    }
  } finally {
    await server?.stop();
  }
  console.log('evalflow: stopped');
}

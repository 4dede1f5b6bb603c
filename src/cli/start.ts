import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { followWorkspaces } from '../client/follow-workspaces.js';
import { type Config, loadApp } from '../config/index.js';
import { createWorker } from '../worker/create-worker.js';
import { openEngine } from '../worker/engine.js';
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
  let server: ChildProcess | null = null;
  let address = config.temporalAddress;
  let ui: string | null = null;
  if (!address) {
    const binaries = await ensureTemporalBinaries();
    console.log(describeBinaries(binaries));
    if (binaries.cli.source === 'sdk-download') {
      throw new Error('npm start needs the temporal CLI on disk; set TEMPORAL_CLI_PATH');
    }
    server = startDevServer(binaries.cli.path, config.namespace, options);
    address = `127.0.0.1:${options.port}`;
    ui = `http://127.0.0.1:${options.uiPort}`;
  }
  try {
    const connection = await connectWhenReady(address, server);
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
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  }
  console.log('evalflow: stopped');
}

function startDevServer(cliPath: string, namespace: string, options: StartOptions): ChildProcess {
  const home = resolve('.evalflow');
  mkdirSync(home, { recursive: true });
  // Its own process group keeps a terminal's Ctrl-C from reaching the server directly: the worker
  // must drain first, then `start` stops the server.
  return spawn(
    cliPath,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(options.port),
      '--ui-port',
      String(options.uiPort),
      '--namespace',
      namespace,
      '--db-filename',
      resolve(home, 'temporal.db'),
      '--log-level',
      'error',
    ],
    { stdio: ['ignore', 'inherit', 'inherit'], detached: true },
  );
}

async function connectWhenReady(
  address: string,
  server: ChildProcess | null,
  timeoutMs = 60_000,
): Promise<NativeConnection> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server && server.exitCode !== null) {
      throw new Error(`the Temporal dev server exited with code ${server.exitCode}`);
    }
    try {
      return await NativeConnection.connect({ address });
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`Temporal at ${address} did not answer within ${timeoutMs / 1000}s`, {
          cause: error,
        });
      }
      await sleep(200);
    }
  }
}

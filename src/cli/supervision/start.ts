import {
  DEFAULTS,
  loadApp,
  type TemporalConnectionOptions,
  temporalConnection,
  withSeparatePorts,
} from '../../config/index.js';
import { startTracing, type Tracing } from '../../worker/index.js';
import { pageLine } from '../presentation/page-line.js';
import { configOf, printTo, type Terminal } from '../terminal.js';
import { type DevServer, startDevServer } from './dev-server.js';
import { engineHomeOf, recordEngine } from './engine-record.js';
import { runUntilStopped, type Service } from './run-until-stopped.js';
import { ensureTemporalCli } from './setup.js';
import { describeBinary } from './temporal-binaries.js';

export interface StartOptions {
  port: number;
  uiPort: number;
  /** The HTTP API port (`--api-port`); else EVALFLOW_API_PORT, else 8787. */
  apiPort?: number;
  /** The port of `GET /metrics` (`--metrics-port`); else EVALFLOW_METRICS_PORT, else 9464. */
  metricsPort?: number;
  /** The app definition file (`--config`); else EVALFLOW_CONFIG, else `./evalflow.config.ts`. */
  config?: string;
}

/**
 * The engine on embedded defaults: the Temporal CLI dev server (its SQLite file under
 * `.evalflow/`) unless TEMPORAL_ADDRESS or a temporal.toml profile names a cluster, a worker
 * with its relays, and the HTTP API, with one metrics endpoint for both. SIGINT or SIGTERM stops
 * the API, then the worker, then the server.
 */
export async function start(terminal: Terminal, options: StartOptions): Promise<void> {
  const print = printTo(terminal);
  const config = configOf(terminal);
  const home = engineHomeOf(terminal);
  // The app first: a config that fails to load stops startup before anything else starts.
  const { app, source, path } = await loadApp(config, { file: options.config, cwd: terminal.cwd });
  print(`evalflow: app from ${source}`);
  const settings = withSeparatePorts({
    ...config,
    api: { ...config.api, port: options.apiPort ?? config.api.port },
    metrics: {
      ...config.metrics,
      port: options.metricsPort ?? config.metrics.port ?? DEFAULTS.metricsPort,
    },
  });
  let server: DevServer | null = null;
  // The dev server is plain: TLS and API keys are for a cluster that was named.
  let temporal: TemporalConnectionOptions | null = config.temporalAddress
    ? temporalConnection(config)
    : null;
  let ui: string | null = null;
  if (!temporal) {
    const cli = await ensureTemporalCli({ env: terminal.env, projectDir: terminal.cwd });
    print(`evalflow setup: ${describeBinary('cli', cli)}`);
    if (cli.source === 'sdk-download') {
      throw new Error('npm start needs the temporal CLI on disk; set TEMPORAL_CLI_PATH');
    }
    server = await startDevServer({
      cliPath: cli.path,
      namespace: config.namespace,
      port: options.port,
      uiPort: options.uiPort,
      home,
      log: print,
    });
    temporal = { address: server.address };
    ui = `http://127.0.0.1:${options.uiPort}`;
    print(`evalflow: Temporal dev server log at ${server.logFile}`);
  }
  const services: Service[] = [];
  let forget = () => {};
  let tracing: Tracing | null = null;
  try {
    tracing = settings.tracing && (await startTracing(settings.tracing));
    if (tracing) print(`evalflow: tracing its own work to ${tracing.settings.endpoint}`);
    // Loaded here, as `evalflow api` loads it: a worker alone starts without the API's modules.
    const { startEngineWithApi } = await import('../../processes/index.js');
    const { engine, api } = await startEngineWithApi({
      config: settings,
      app,
      temporal,
      home,
      ...(tracing ? { tracing } : {}),
    });
    services.push(engine, api);
    // Recorded once the API listens, so a command beside it reads the address it answers on.
    forget = recordEngine(home, { configFile: path, source, apiUrl: api.url });
    print(`evalflow: API at ${api.url} (docs at ${api.url}/docs)`);
    print(pageLine(api));
    print(`evalflow: metrics at ${engine.metrics.url}`);
    print(
      `evalflow: worker polling task queue ${config.taskQueue} on Temporal at ${temporal.address}` +
        (ui ? `; Temporal UI at ${ui}` : ''),
    );
    await runUntilStopped(services);
  } finally {
    forget();
    for (const service of services.reverse()) await service.stop().catch(() => {});
    // Its last spans (the workers' shutdown) are sent before the process ends.
    await tracing?.shutdown().catch(() => {});
    await server?.stop();
  }
  print('evalflow: stopped');
}

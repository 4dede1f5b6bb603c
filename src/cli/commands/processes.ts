import type { Command } from 'commander';
import { type Config, loadApp, temporalConnection, withSeparatePorts } from '../../config/index.js';
import { startEngine, startTracing, type Tracing } from '../../worker/index.js';
import { CONFIG_OPTION, portNumber } from '../context.js';
import { withExamples } from '../presentation/examples.js';
import { pageLine } from '../presentation/page-line.js';
import { ensureChromium } from '../supervision/chromium-binary.js';
import { engineHomeOf, recordEngine } from '../supervision/engine-record.js';
import { ensurePostgres } from '../supervision/postgres-binaries.js';
import { runUntilStopped } from '../supervision/run-until-stopped.js';
import { describeBinaries, ensureTemporalBinaries } from '../supervision/setup.js';
import { start } from '../supervision/start.js';
import { configOf, printTo, type Terminal } from '../terminal.js';

// The engine's processes: `setup` (binaries), `start` (everything on embedded defaults), and the
// worker and the API each alone.

const API_PORT_OPTION = [
  '--api-port <port>',
  'the HTTP API port (default EVALFLOW_API_PORT, else 8787)',
] as const;

/** The Prometheus endpoint's port: `start` serves one by default, the worker and API alone don't. */
const metricsPortOption = (fallback: string) =>
  [
    '--metrics-port <port>',
    `the port of GET /metrics, Prometheus's endpoint (default EVALFLOW_METRICS_PORT, else ${fallback})`,
  ] as const;

/** The environment's settings with the metrics port a flag gave, if one did. */
const withMetricsPort = (config: Config, port: number | undefined): Config =>
  withSeparatePorts(
    port === undefined ? config : { ...config, metrics: { ...config.metrics, port } },
  );

export function registerEngine(program: Command, terminal: Terminal): void {
  const print = printTo(terminal);
  withExamples(
    program
      .command('setup')
      .description(
        'make sure the Temporal CLI, the time-skipping test server, Postgres and Chromium are there',
      ),
    'evalflow setup',
  ).action(async () => {
    const { env, cwd } = terminal;
    print(describeBinaries(await ensureTemporalBinaries({ env, projectDir: cwd })));
    print(`evalflow setup: ${ensurePostgres(env)}`);
    print(`evalflow setup: ${ensureChromium(env)}`);
  });

  withExamples(
    program
      .command('start')
      .description(
        'run the engine: the Temporal dev server (unless TEMPORAL_ADDRESS is set), a worker and the HTTP API',
      )
      .option('--port <port>', 'the dev server frontend port', portNumber, 7233)
      .option('--ui-port <port>', 'the Temporal UI port', portNumber, 8233)
      .option(...API_PORT_OPTION, portNumber)
      .option(...metricsPortOption('9464'), portNumber)
      .option(...CONFIG_OPTION),
    'evalflow start --config examples/quickstart/evalflow.config.ts --api-port 8787',
  ).action(
    async (options: {
      port: number;
      uiPort: number;
      apiPort?: number;
      metricsPort?: number;
      config?: string;
    }) => {
      await start(terminal, options);
    },
  );

  withExamples(
    program
      .command('worker')
      .description(
        'run the worker and the trigger relays alone, on TEMPORAL_ADDRESS (default 127.0.0.1:7233)',
      )
      .option(...metricsPortOption('none'), portNumber)
      .option(...CONFIG_OPTION),
    'TEMPORAL_ADDRESS=temporal:7233 evalflow worker --config evalflow.config.ts --metrics-port 9464',
  ).action(async (options: { config?: string; metricsPort?: number }) => {
    const config = withMetricsPort(configOf(terminal), options.metricsPort);
    const { app, source, path } = await loadApp(config, {
      file: options.config,
      cwd: terminal.cwd,
    });
    print(`evalflow: app from ${source}`);
    await traced(config, print, async (tracing) => {
      const engine = await startEngine({
        config,
        app,
        temporal: temporalConnection(config),
        home: engineHomeOf(terminal),
        ...(tracing ? { tracing } : {}),
      });
      const forget = recordEngine(engineHomeOf(terminal), {
        configFile: path,
        source,
        apiUrl: null,
      });
      if (engine.metrics.url) print(`evalflow: metrics at ${engine.metrics.url}`);
      print(`evalflow: worker polling task queue ${config.taskQueue}`);
      await runUntilStopped([engine]).finally(forget);
    });
  });

  withExamples(
    program
      .command('api')
      .description('run the HTTP API alone, on TEMPORAL_ADDRESS (default 127.0.0.1:7233)')
      .option(...API_PORT_OPTION, portNumber)
      .option(...metricsPortOption('none'), portNumber)
      .option(...CONFIG_OPTION),
    'TEMPORAL_ADDRESS=temporal:7233 evalflow api --api-port 8787 --metrics-port 9465',
  ).action(async (options: { apiPort?: number; metricsPort?: number; config?: string }) => {
    const loaded = configOf(terminal);
    const config = withMetricsPort(
      options.apiPort ? { ...loaded, api: { ...loaded.api, port: options.apiPort } } : loaded,
      options.metricsPort,
    );
    const { app, source } = await loadApp(config, { file: options.config, cwd: terminal.cwd });
    print(`evalflow: app from ${source}`);
    await traced(config, print, async (tracing) => {
      // The API is loaded only by the commands that serve it: a worker alone starts without it.
      const { startApi } = await import('../../processes/index.js');
      const api = await startApi({
        config,
        app,
        temporal: temporalConnection(config),
        ...(tracing ? { clientInterceptors: tracing.clientInterceptors } : {}),
      });
      print(`evalflow: API at ${api.url} (docs at ${api.url}/docs)`);
      print(pageLine(api));
      if (api.metricsUrl) print(`evalflow: metrics at ${api.metricsUrl}`);
      await runUntilStopped([api]);
    });
  });
}

/**
 * Runs a process's services with its own spans sent where `config.tracing` says (none when it
 * says nowhere), the last of them sent when they stop.
 */
async function traced(
  config: Config,
  print: (line: string) => void,
  run: (tracing: Tracing | null) => Promise<void>,
): Promise<void> {
  const tracing = config.tracing && (await startTracing(config.tracing));
  if (tracing) print(`evalflow: tracing its own work to ${tracing.settings.endpoint}`);
  try {
    await run(tracing);
  } finally {
    await tracing?.shutdown().catch(() => {});
  }
}

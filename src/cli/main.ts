import { Command, InvalidArgumentError } from 'commander';
import { loadApp, loadConfig, temporalConnection } from '../config/index.js';
import { runConformance } from './conformance-command.js';
import { createKey, listKeys, revokeKey } from './keys.js';
import { ensurePostgres } from './postgres-binaries.js';
import { runUntilStopped, serveApi, serveWorker } from './serve.js';
import { describeBinaries, ensureTemporalBinaries } from './setup.js';
import { start } from './start.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65_535) {
    throw new InvalidArgumentError(`a port is a whole number from 1 to 65535, not ${value}`);
  }
  return n;
}

const program = new Command('evalflow')
  .description('A durable workflow engine for evaluator runs, on Temporal.')
  .showHelpAfterError()
  .configureOutput({ outputError: (message, write) => write(message) });

program
  .command('setup')
  .description('make sure the Temporal CLI, the time-skipping test server and Postgres are there')
  .action(async () => {
    console.log(describeBinaries(await ensureTemporalBinaries()));
    console.log(`evalflow setup: ${ensurePostgres()}`);
  });

program
  .command('start')
  .description(
    'run the engine: the Temporal dev server (unless TEMPORAL_ADDRESS or temporal.toml names one) and a worker',
  )
  .option('--port <port>', 'the dev server frontend port', port, 7233)
  .option('--ui-port <port>', 'the Temporal UI port', port, 8233)
  .option('--api-port <port>', 'the HTTP API port (default EVALFLOW_API_PORT, else 8787)', port)
  .option('--config <file>', 'the app definition (default ./evalflow.config.ts when present)')
  .action(async (options: { port: number; uiPort: number; apiPort?: number; config?: string }) => {
    await start(loadConfig(), options);
  });

program
  .command('worker')
  .description(
    'run the worker and the trigger relays alone, on the configured Temporal (default 127.0.0.1:7233)',
  )
  .option('--config <file>', 'the app definition (default ./evalflow.config.ts when present)')
  .action(async (options: { config?: string }) => {
    const config = loadConfig();
    const { app, source } = await loadApp(config, { file: options.config });
    console.log(`evalflow: app from ${source}`);
    const worker = await serveWorker(config, app, temporalConnection(config));
    console.log(`evalflow: worker polling task queue ${config.taskQueue}`);
    await runUntilStopped([worker]);
  });

program
  .command('api')
  .description('run the HTTP API alone, on the configured Temporal (default 127.0.0.1:7233)')
  .option('--api-port <port>', 'the HTTP API port (default EVALFLOW_API_PORT, else 8787)', port)
  .option('--config <file>', 'the app definition (default ./evalflow.config.ts when present)')
  .action(async (options: { apiPort?: number; config?: string }) => {
    const loaded = loadConfig();
    const config = options.apiPort
      ? { ...loaded, api: { ...loaded.api, port: options.apiPort } }
      : loaded;
    const { app, source } = await loadApp(config, { file: options.config });
    console.log(`evalflow: app from ${source}`);
    const api = await serveApi(config, app, temporalConnection(config));
    console.log(`evalflow: API at ${api.url} (docs at ${api.url}/docs)`);
    await runUntilStopped([api]);
  });

const keys = program
  .command('keys')
  .description('API keys: each bound to one workspace and one principal');
keys
  .command('create')
  .description('create a key and print it once')
  .requiredOption('--workspace <id>', 'the workspace the key may read and write')
  .requiredOption(
    '--principal <principal>',
    'system, admin, agent, user:<id>, reviewer:<id> or evaluator:<name>@<version>',
  )
  .option('--name <label>', 'what the key is for')
  .option('--json', 'print one JSON object {id, key, workspace, principal}')
  .action((options: { workspace: string; principal: string; name?: string; json?: boolean }) =>
    createKey(loadConfig(), options, (line) => console.log(line)),
  );
keys
  .command('list')
  .description('list the keys (never their secrets)')
  .option('--workspace <id>', 'only this workspace')
  .option('--json', 'print one JSON array')
  .action((options: { workspace?: string; json?: boolean }) =>
    listKeys(loadConfig(), options, (line) => console.log(line)),
  );
keys
  .command('revoke')
  .description('revoke a key: it answers 401 at once')
  .argument('<id>', "the key's id")
  .option('--json', 'print one JSON object')
  .action((id: string, options: { json?: boolean }) =>
    revokeKey(loadConfig(), id, options, (line) => console.log(line)),
  );

program
  .command('conformance')
  .description('run conformance case files against the core; exits non-zero on any failure')
  .argument('<files...>', 'case files, each {description, cases: [...]}')
  .action(async (files: string[]) => {
    const failed = await runConformance(files, (line) => console.log(line));
    if (failed > 0) process.exitCode = 1;
  });

try {
  await program.parseAsync();
} catch (error) {
  console.error(`evalflow: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../config/index.js';
import { runConformance } from './conformance-command.js';
import { ensurePostgres } from './postgres-binaries.js';
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
    'run the engine: the Temporal dev server (unless TEMPORAL_ADDRESS is set) and a worker',
  )
  .option('--port <port>', 'the dev server frontend port', port, 7233)
  .option('--ui-port <port>', 'the Temporal UI port', port, 8233)
  .option('--config <file>', 'the app definition (default ./evalflow.config.ts when present)')
  .action(async (options: { port: number; uiPort: number; config?: string }) => {
    await start(loadConfig(), options);
  });

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

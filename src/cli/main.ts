import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from './config.js';
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
  .description('make sure the Temporal CLI and time-skipping test server are installed')
  .action(async () => {
    console.log(describeBinaries(await ensureTemporalBinaries()));
  });

program
  .command('start')
  .description(
    'run the engine: the Temporal dev server (unless TEMPORAL_ADDRESS is set) and a worker',
  )
  .option('--port <port>', 'the dev server frontend port', port, 7233)
  .option('--ui-port <port>', 'the Temporal UI port', port, 8233)
  .action(async (options: { port: number; uiPort: number }) => {
    await start(loadConfig(), options);
  });

try {
  await program.parseAsync();
} catch (error) {
  console.error(`evalflow: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}

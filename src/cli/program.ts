import { readFileSync } from 'node:fs';
import { Command, type CommanderError } from 'commander';
import { registerAgreement } from './commands/agreement.js';
import { registerConformance } from './commands/conformance.js';
import { registerCosts } from './commands/costs.js';
import { registerDemo } from './commands/demo.js';
import { registerDoctor } from './commands/doctor.js';
import { registerJudges } from './commands/judges.js';
import { registerKeys } from './commands/keys.js';
import { registerLedger } from './commands/ledger.js';
import { registerEngine } from './commands/processes.js';
import { registerQueues } from './commands/queues.js';
import { registerReevaluate } from './commands/reevaluate.js';
import { registerReviewers } from './commands/reviewers.js';
import { registerRules } from './commands/rules.js';
import { registerRuns } from './commands/runs.js';
import { registerScores } from './commands/scores.js';
import { ExitCode, processTerminal, type Terminal, tellTo } from './terminal.js';

// The `evalflow` command line: every command, and the one way errors end it. An error is one line
// on stderr, `evalflow: <what is wrong>`, and exit code 1; help and --version exit 0.

/** The package's version; package.json sits two folders up from both `src/cli` and `dist/cli`. */
export const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

export function buildProgram(outer: Terminal = processTerminal()): Command {
  const program = new Command('evalflow')
    .description('A durable workflow engine for evaluator runs, on Temporal.')
    .version(VERSION, '-V, --version', 'print the version')
    .option(
      '--home <dir>',
      "the engine's state folder: its dev server's files, engine record, and default store and score files (default EVALFLOW_HOME, else ./.evalflow)",
    );
  // Commands read the state folder from the environment they see, so `--home` is EVALFLOW_HOME
  // for this command line: one setting, whichever way it is given.
  const terminal: Terminal = {
    ...outer,
    get env() {
      const home: string | undefined = program.opts().home;
      return home === undefined ? outer.env : { ...outer.env, EVALFLOW_HOME: home };
    },
  };
  registerEngine(program, terminal);
  registerDemo(program, terminal);
  registerKeys(program, terminal);
  registerRules(program, terminal);
  registerQueues(program, terminal);
  registerJudges(program, terminal);
  registerReviewers(program, terminal);
  registerReevaluate(program, terminal);
  registerLedger(program, terminal);
  registerRuns(program, terminal);
  registerScores(program, terminal);
  registerAgreement(program, terminal);
  registerCosts(program, terminal);
  registerDoctor(program, terminal);
  registerConformance(program, terminal);
  for (const command of commandsOf(program)) {
    // Commander's own errors (an unknown option, a missing argument) are thrown, not printed, so
    // `runCli` prints them as every other error: one line, naming the command's help.
    command.configureOutput({
      writeOut: (text) => terminal.stdout.write(text),
      writeErr: (text) => terminal.stderr.write(text),
      outputError: () => {},
    });
    command.exitOverride((error) => {
      throw new CommandLineError(error, pathOf(command));
    });
  }
  return program;
}

/** Thrown (by commander, through `exitOverride`) when the command line itself is wrong, or for help. */
class CommandLineError extends Error {
  override readonly name = 'CommandLineError';
  readonly code: string;
  readonly exitCode: number;
  constructor(
    error: CommanderError,
    /** `evalflow rules set`, say. */
    readonly command: string,
  ) {
    super(error.message);
    this.code = error.code;
    this.exitCode = error.exitCode;
  }
}

/**
 * Runs the command line on `terminal` (default: the process's own environment, folder and
 * streams); resolves with the exit code, and never sets the process's own.
 */
export async function runCli(
  argv: readonly string[],
  terminal: Terminal = processTerminal(),
): Promise<number> {
  const tell = tellTo(terminal);
  const program = buildProgram(terminal);
  try {
    refuseUnknownCommandsWithHelp(program, argv.slice(2));
    await program.parseAsync([...argv]);
    return 0;
  } catch (error) {
    if (error instanceof ExitCode) return error.code;
    if (error instanceof CommandLineError) {
      // Help and the version were printed already; help asked for by a group alone exits 1.
      if (error.code === 'commander.help' || error.exitCode === 0) return error.exitCode;
      const message = oneLine(error.message.replace(/^error: /, ''));
      tell(`evalflow: ${message} (see ${error.command} --help)`);
      return error.exitCode || 1;
    }
    tell(`evalflow: ${firstLine(error)}`);
    return 1;
  }
}

/**
 * Commander prints a group's help for `--help` before it looks at the command named, so
 * `evalflow frobnicate --help` would print the top help and exit 0. An unknown command is refused
 * with or without --help, as commander refuses it without. (Groups take no options with values,
 * so their first word that is not an option names the command.)
 */
function refuseUnknownCommandsWithHelp(program: Command, args: readonly string[]): void {
  if (!args.some((arg) => arg === '--help' || arg === '-h')) return;
  let command: Command = program;
  for (const arg of args) {
    if (arg === '--' || command.commands.length === 0) return;
    if (arg.startsWith('-')) continue;
    if (arg === 'help') return;
    const named = command.commands.find((sub) => sub.name() === arg || sub.aliases().includes(arg));
    if (named === undefined) {
      command.error(`error: unknown command '${arg}'`, { code: 'commander.unknownCommand' });
    }
    command = named;
  }
}

/** Every command under `root`, and `root` itself. */
export function commandsOf(root: Command): Command[] {
  return [root, ...root.commands.flatMap((command) => commandsOf(command))];
}

/** `evalflow rules set`. */
export function pathOf(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

import { isAbsolute, resolve } from 'node:path';
import { type Config, loadConfig } from '../config/index.js';
import type { ProgressStream } from './presentation/progress-bar.js';

// What a command gets from whoever runs it: the process's own environment, folder and streams
// for `evalflow` itself, or others a caller gives `runCli` (the tests run every command in their
// own process this way, each in a folder of its own). Commands read and write only through it.

export interface Terminal {
  /** The environment variables the command reads. */
  readonly env: NodeJS.ProcessEnv;
  /** The folder relative paths resolve against: `.evalflow/`, `./evalflow.config.ts`, --config. */
  readonly cwd: string;
  /** Text written as is: help, and a progress bar redrawn in place when it is a terminal. */
  readonly stdout: ProgressStream;
  readonly stderr: { write(text: string): unknown };
}

/** The process's own. */
export const processTerminal = (): Terminal => ({
  env: process.env,
  cwd: process.cwd(),
  stdout: process.stdout,
  stderr: process.stderr,
});

/** One line on the terminal's stdout. */
export const printTo =
  (terminal: Terminal) =>
  (line: string): void => {
    terminal.stdout.write(`${line}\n`);
  };

/** One line on the terminal's stderr. */
export const tellTo =
  (terminal: Terminal) =>
  (line: string): void => {
    terminal.stderr.write(`${line}\n`);
  };

/**
 * The terminal's settings (`loadConfig`), with the store's and the score files resolved in its
 * folder (the app's file is resolved by `loadApp`, which names it as given).
 */
export function configOf(terminal: Terminal): Config {
  const config = loadConfig(terminal.env);
  const at = (path: string) =>
    isAbsolute(path) || path === ':memory:' ? path : resolve(terminal.cwd, path);
  return {
    ...config,
    store: { ...config.store, sqlitePath: at(config.store.sqlitePath) },
    scoresFile: at(config.scoresFile),
    scoreConfigsFile: at(config.scoreConfigsFile),
  };
}

/** Ends the command with `code` once it has said why: nothing more is printed. */
export class ExitCode extends Error {
  override readonly name = 'ExitCode';
  constructor(readonly code: number) {
    super(`exit code ${code}`);
  }
}

import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { ENVIRONMENT } from '../../src/config/index.js';

// Running evalflow's CLI and example programs as a user would: separate processes, from the
// sources through tsx.

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cliMain = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
// By path, so a process started in any folder (a temp home) finds the loader.
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

/** The environment without evalflow's own settings (CI sets DATABASE_URL, say): the defaults. */
export function embeddedDefaults(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !(name in ENVIRONMENT)));
}

/** The Temporal binaries the global setup found, as the CLI's variables name them. */
export function temporalBinaries(): NodeJS.ProcessEnv {
  const pathOf = (binary: ReturnType<typeof inject<'temporalCli'>>) =>
    'path' in binary ? binary.path : '';
  return {
    TEMPORAL_CLI_PATH: pathOf(inject('temporalCli')),
    TEMPORAL_TEST_SERVER_PATH: pathOf(inject('temporalTestServer')),
  };
}

/** Runs a TypeScript file with plain node and tsx's loader. */
export function runTypeScript(
  file: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): ChildProcess {
  // `evalflow-source`: the example programs' `evalflow` imports resolve to the sources.
  const node = ['--conditions=evalflow-source', '--import', tsxLoader];
  return spawn(process.execPath, [...node, file, ...args], {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** `evalflow ARGS...` from the sources. */
export const runCli = (args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) =>
  runTypeScript(cliMain, args, options);

/** Everything a process printed, once it exits, with its exit code. */
export function finished(
  child: ChildProcess,
): Promise<{ code: number | null; out: string; err: string }> {
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out, err })));
}

/** Resolves with the first line of stdout matching `pattern`; rejects if the process exits first. */
export function waitForLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = 90_000,
): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${output}`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code} before ${pattern}:\n${output}`)),
    );
  });
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });
}

/** Polls `probe` until it returns a value that passes `done`, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 60_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

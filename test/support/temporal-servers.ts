import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import { whenReady } from '../../src/workflow-clients/temporal-ready.js';
import { freePort } from './free-port.js';

// The Temporal servers the tests start themselves, each waited on by what it says or answers
// rather than by the SDK's fixed five-second window (which a loaded machine misses):
// - one CLI dev server for the whole run, shared by every file, each on a namespace of its own;
// - a time-skipping test server per file that needs one (skipping time is global to a server).

const HOST = '127.0.0.1';
/** How long a server may take to answer on a loaded machine before the run gives up on it. */
const START_DEADLINE_MS = 120_000;

export interface StartedServer {
  /** `127.0.0.1:port`. */
  readonly address: string;
  stop(): Promise<void>;
}

/** The dev server every `*.temporal.test.ts` file shares, with each file's namespace made. */
export async function startSharedDevServer(
  cliPath: string,
  namespaces: readonly string[],
  /** Where its errors go: tests provoke some on purpose (updates beyond its in-flight limit). */
  logFile: string,
): Promise<StartedServer> {
  const port = await freePort();
  const log = openSync(logFile, 'w');
  const child = spawn(
    cliPath,
    [
      'server',
      'start-dev',
      ...['--ip', HOST, '--port', String(port), '--headless', '--log-level', 'error'],
      ...namespaces.flatMap((namespace) => ['--namespace', namespace]),
    ],
    { stdio: ['ignore', 'pipe', log] },
  );
  closeSync(log);
  // It prints its banner once its frontend listens, with every namespace already made.
  await lineOf(child, /^Temporal Server:/);
  return served(child, `${HOST}:${port}`);
}

/** A time-skipping test server on a free loopback port, once it answers. */
export async function startTimeSkippingServer(executable: string): Promise<StartedServer> {
  const port = await freePort();
  const child = spawn(executable, [String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const address = `${HOST}:${port}`;
  // It prints nothing when ready: a connection it accepts is the only sign. An attempt can wait
  // seconds for its answer, so its exit ends the wait on its own.
  const ready = whenReady({ address }, (options) => Connection.connect(options), {
    timeoutMs: START_DEADLINE_MS,
    server: child,
  });
  ready.catch(() => {}); // The race below reports whichever comes first.
  const connection = await Promise.race([ready, exitOf(child)]);
  await connection.close();
  return served(child, address);
}

/** Rejects when `child` exits, with its code. */
function exitOf(child: ChildProcess): Promise<never> {
  return new Promise((_, reject) =>
    child.once('exit', (code, signal) =>
      reject(new Error(`the Temporal test server exited with code ${code ?? signal}`)),
    ),
  );
}

function served(child: ChildProcess, address: string): StartedServer {
  // A run that ends without its teardown (an error, process.exit) still takes its servers along.
  const orphaned = () => child.kill('SIGKILL');
  process.once('exit', orphaned);
  return {
    address,
    async stop() {
      process.off('exit', orphaned);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Resolves on the first stdout line matching `pattern`; rejects if the process exits first. */
function lineOf(child: ChildProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${START_DEADLINE_MS} ms:\n${output}`)),
      START_DEADLINE_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.split('\n').some((line) => pattern.test(line))) {
        clearTimeout(timer);
        child.stdout?.removeAllListeners('data');
        child.stdout?.resume();
        resolvePromise();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Temporal dev server exited with ${code}:\n${output}`));
    });
  });
}

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The namespace a test file works in on the shared dev server: its path, as a name. */
export function namespaceOf(testFile: string): string {
  return relative(root, resolve(testFile))
    .replace(/\.temporal\.test\.ts$/, '')
    .replace(/[^A-Za-z0-9]+/g, '-');
}

/** Every `*.temporal.test.ts` under test/, by path from the repository's root. */
export function temporalTestFiles(): string[] {
  return readdirSync(resolve(root, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.temporal.test.ts'))
    .map((path) => `test/${path}`);
}

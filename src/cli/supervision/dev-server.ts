import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { readWholeFile, writeWholeFile } from '../../worker/whole-file.js';
import { DevServerInUseError, DevServerPortInUseError } from '../errors.js';
import { commandLineOf, isAlive, portIsFree, portsReleased, terminate } from './processes.js';

// `npm start`'s Temporal dev server runs detached, so it outlives a SIGKILL of `npm start`. Its
// pid file (`.evalflow/temporal.pid`) lets the next start find such a leftover and stop it,
// instead of failing on the port it holds, or silently talking to it and never stopping it.

export interface DevServerOptions {
  /** The `temporal` CLI executable. */
  cliPath: string;
  namespace: string;
  port: number;
  uiPort: number;
  /** The folder of its state file (`temporal.db`) and pid file (default `.evalflow`). */
  home?: string;
  /** Where it says it stopped a leftover (default `console.log`). */
  log?: (line: string) => void;
  /** Where it says the server ended though no one stopped it (default `console.error`). */
  warn?: (line: string) => void;
  /** How long a server gets to stop after SIGTERM before SIGKILL (default 10 s). */
  graceMs?: number;
}

export interface DevServer {
  readonly child: ChildProcess;
  readonly pid: number;
  /** `127.0.0.1:port`. */
  readonly address: string;
  /** The file its output goes to (`temporal.log` in its home), rewritten at each start. */
  readonly logFile: string;
  /** Stops the server (SIGTERM, then SIGKILL after the grace period) and removes its pid file. */
  stop(): Promise<void>;
}

/** What the pid file records: the server, and the `evalflow start` that owns it. */
const devServerRecord = z.object({
  pid: z.int().positive(),
  port: z.int(),
  uiPort: z.int(),
  stateFile: z.string(),
  owner: z.object({ pid: z.int().positive(), command: z.string().nullable() }),
  startedAt: z.string(),
});
export type DevServerRecord = z.infer<typeof devServerRecord>;

const DEFAULT_GRACE_MS = 10_000;
/** How long a stopped leftover's ports get to close before the start calls them in use. */
const PORT_RELEASE_MS = 5_000;
const HOST = '127.0.0.1';

export const pidFileOf = (home: string): string => join(home, 'temporal.pid');
export const stateFileOf = (home: string): string => join(home, 'temporal.db');
export const logFileOf = (home: string): string => join(home, 'temporal.log');
/** How many of its last lines a server that ended on its own leaves in the warning. */
const TAIL_LINES = 20;

/**
 * Starts the dev server with its state in `home`, after stopping a leftover of the same state
 * file whose `evalflow start` is gone.
 *
 * @throws DevServerInUseError when that state file's server belongs to a start still running.
 * @throws DevServerPortInUseError when another program holds the port or the UI port.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const home = resolve(options.home ?? '.evalflow');
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  mkdirSync(home, { recursive: true });
  await stopLeftoverDevServer({ home, graceMs, log: options.log ?? console.log });
  for (const [port, option] of [
    [options.port, '--port'],
    [options.uiPort, '--ui-port'],
  ] as const) {
    if (!(await portIsFree(port, HOST))) throw new DevServerPortInUseError(port, option);
  }

  const stateFile = stateFileOf(home);
  // Its output goes to a file, not the terminal: at a clean stop it logs benign errors for the
  // requests it cuts short, and a server that ends on its own is reported with its last lines.
  const logFile = logFileOf(home);
  const output = openSync(logFile, 'w');
  // Its own process group keeps a terminal's Ctrl-C from reaching the server directly: the worker
  // must drain first, then `start` stops the server.
  const child = spawn(
    options.cliPath,
    [
      'server',
      'start-dev',
      '--ip',
      HOST,
      '--port',
      String(options.port),
      '--ui-port',
      String(options.uiPort),
      '--namespace',
      options.namespace,
      '--db-filename',
      stateFile,
      '--log-level',
      'error',
    ],
    { stdio: ['ignore', output, output], detached: true },
  );
  closeSync(output);
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) (options.warn ?? console.error)(endedOnItsOwn(code, signal, logFile));
  });
  const { pid } = child;
  if (pid === undefined) {
    stopping = true;
    const [error] = (await once(child, 'error')) as [Error];
    throw error;
  }
  const pidFile = pidFileOf(home);
  writeRecord(pidFile, {
    pid,
    port: options.port,
    uiPort: options.uiPort,
    stateFile,
    owner: { pid: process.pid, command: commandLineOf(process.pid) },
    startedAt: new Date().toISOString(),
  });

  return {
    child,
    pid,
    address: `${HOST}:${options.port}`,
    logFile,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exit = once(child, 'exit');
        stopping = true;
        child.kill('SIGTERM');
        // The grace timer is cancelled once the server exits: it must not hold the process open.
        const grace = new AbortController();
        const stopped = await Promise.race([
          exit.then(() => true),
          sleep(graceMs, false, { signal: grace.signal }).catch(() => true),
        ]);
        grace.abort();
        if (!stopped) {
          child.kill('SIGKILL');
          await exit;
        }
      }
      if (readRecord(pidFile)?.pid === pid) rmSync(pidFile, { force: true });
    },
  };
}

/** The warning for a server that ended though no one stopped it, with its log's last lines. */
function endedOnItsOwn(
  code: number | null,
  signal: NodeJS.Signals | null,
  logFile: string,
): string {
  const how = signal === null ? `with code ${code}` : `on ${signal}`;
  const said = `evalflow: the Temporal dev server ended ${how}`;
  if (!existsSync(logFile)) return `${said}; its log ${logFile} is gone`;
  const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
  return `${said}; the last lines of ${logFile}:\n${lines.slice(-TAIL_LINES).join('\n')}`;
}

/** What a `.evalflow` folder's pid file says about its dev server. */
export type DevServerStatus =
  /** No pid file, or one that is not a record. */
  | { state: 'none' }
  /** A pid file naming a process that is gone, or is now some other program. */
  | { state: 'stale'; record: DevServerRecord }
  /** The server runs, and so does the `evalflow start` that owns it. */
  | { state: 'owned'; record: DevServerRecord }
  /** The server runs, but its `evalflow start` is gone: a leftover of a crashed start. */
  | { state: 'leftover'; record: DevServerRecord };

/** Reads the pid file in `home` (an absolute path) and looks at the processes it names. */
export function inspectDevServer(home: string): DevServerStatus {
  const record = readRecord(pidFileOf(home));
  if (record === null) return { state: 'none' };
  // A pid proves little once its process is gone and the number reused: the command line must
  // still be a dev server on this folder's state file.
  const command = commandLineOf(record.pid);
  const running =
    record.stateFile === stateFileOf(home) &&
    command !== null &&
    command.includes('start-dev') &&
    command.includes(record.stateFile);
  if (!running) return { state: 'stale', record };
  const { owner } = record;
  const ownerRuns =
    owner.pid !== process.pid &&
    isAlive(owner.pid) &&
    (owner.command === null || commandLineOf(owner.pid) === owner.command);
  return { state: ownerRuns ? 'owned' : 'leftover', record };
}

/**
 * Stops the server a pid file in `home` names, if it still runs and its owner does not; a pid
 * file naming a process that is gone (or is now some other program) is removed.
 */
export async function stopLeftoverDevServer(options: {
  /** An absolute path. */
  home: string;
  graceMs: number;
  log: (line: string) => void;
}): Promise<void> {
  const status = inspectDevServer(options.home);
  if (status.state === 'none') return;
  const { record } = status;
  if (status.state === 'owned') {
    throw new DevServerInUseError(record.stateFile, record.pid, record.owner.pid);
  }
  if (status.state === 'leftover') {
    await terminate(record.pid, options.graceMs);
    await portsReleased([record.port, record.uiPort], HOST, PORT_RELEASE_MS);
    options.log(
      `evalflow: stopped a leftover Temporal dev server (pid ${record.pid}, port ${record.port}) ` +
        'of an earlier evalflow start that did not shut down',
    );
  }
  rmSync(pidFileOf(options.home), { force: true });
}

function readRecord(pidFile: string): DevServerRecord | null {
  const text = readWholeFile(pidFile);
  if (text === null) return null;
  try {
    return devServerRecord.parse(JSON.parse(text));
  } catch {
    // Not a record (edited by hand, say): nothing to go by, and nothing anyone can stop.
    return null;
  }
}

function writeRecord(pidFile: string, record: DevServerRecord): void {
  // Written aside, then renamed: a crash never leaves half a record.
  writeWholeFile(pidFile, `${JSON.stringify(record, null, 2)}\n`);
}

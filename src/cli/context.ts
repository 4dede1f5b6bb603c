import { Client, Connection } from '@temporalio/client';
import { type Command, InvalidArgumentError } from 'commander';
import {
  type AppDefinition,
  builtinApp,
  type Config,
  loadApp,
  temporalConnection,
} from '../config/index.js';
import { durationProblem, idProblem, nanosOf } from '../core/index.js';
import { evaluatorTaskQueues } from '../evaluators/index.js';
import {
  type EvaluationRecords,
  type EventLog,
  openStore,
  type Store,
  type StoreIdentity,
} from '../store/index.js';
import { ReevaluationClient } from '../workflow-clients/index.js';
import { TemporalUnreachableError, UsageError } from './errors.js';
import { engineHomeOf, runningEngine } from './supervision/engine-record.js';
import { configOf, type Terminal, tellTo } from './terminal.js';

// What the commands share: the app and the store they work on, Temporal, printing, and the
// parsers commander runs on flag values (each refusal one line naming the flag's rule).

/** The system actor the CLI's rule commands (set, promote) are recorded as. */
export const CLI_ACTOR = { kind: 'system', name: 'cli' } as const;

/** Prints one line to stdout. */
export type Print = (line: string) => void;

/** The `--config <file>` option's description, the same on every command that reads the app. */
export const CONFIG_OPTION = [
  '--config <file>',
  'the app definition (default EVALFLOW_CONFIG, else ./evalflow.config.ts when present)',
] as const;

/** The same option on the commands that read the app beside a running engine (`appOf`). */
export const APP_OPTION = [
  '--config <file>',
  'the app definition (default EVALFLOW_CONFIG, else the app of the engine running from this folder, else ./evalflow.config.ts when present)',
] as const;

/**
 * The terminal's settings and the app the command works with: the one named (`--config`, or
 * EVALFLOW_CONFIG), else the one the engine running from the terminal's folder loaded, else
 * `./evalflow.config.ts` or the built-ins. Beside a running engine it says on stderr which app it
 * reads, and when that is not the engine's.
 */
export async function appOf(
  options: { config?: string },
  terminal: Terminal,
): Promise<{ config: Config; app: AppDefinition }> {
  const tell = tellTo(terminal);
  const config = configOf(terminal);
  const engine = runningEngine(engineHomeOf(terminal));
  const named = options.config ?? config.configFile ?? undefined;
  if (engine !== null && named === undefined) {
    const app =
      engine.configFile === null
        ? builtinApp(config.judge)
        : (await loadApp(config, { file: engine.configFile, cwd: terminal.cwd })).app;
    tell(`evalflow: the app of the running engine (pid ${engine.pid}): ${engine.source}`);
    return { config, app };
  }
  const { app, source, path } = await loadApp(config, { file: named, cwd: terminal.cwd });
  if (engine !== null && path !== engine.configFile) {
    tell(
      `evalflow: this command reads ${source}, not the app of the running engine (pid ${engine.pid}): ${engine.source}`,
    );
  }
  return { config, app };
}

/**
 * The API's address for links a command prints: the one the engine running from the terminal's
 * folder answers on (`evalflow start --api-port` may differ from the environment's), else the
 * environment's (EVALFLOW_API_HOST, EVALFLOW_API_PORT).
 */
export function apiAddressOf(terminal: Terminal): string {
  const engine = runningEngine(engineHomeOf(terminal));
  if (engine?.apiUrl) return engine.apiUrl;
  const { host, port } = configOf(terminal).api;
  return `http://${host}:${port}`;
}

/** Opens the store the environment names for `app` (default: the built-ins), runs `work`, closes it. */
export async function withStore<T>(
  config: Config,
  work: (store: Store) => Promise<T>,
  app: AppDefinition = builtinApp(null),
): Promise<T> {
  const store = await openStore({ ...app, ...config.store });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** The `--workspace` option of the commands that cover every workspace unless one is named. */
export const EVERY_WORKSPACE_OPTION = [
  '--workspace <id>',
  'one workspace (default: every workspace)',
  identifier,
] as const;

/** The workspaces a command covers: the one named, else every workspace the store holds. */
export async function workspacesOf(
  store: Pick<EventLog, 'workspaces'>,
  workspace: string | undefined,
): Promise<string[]> {
  return workspace === undefined ? store.workspaces() : [workspace];
}

/** Temporal's address for the commands that never start a server. */
export const temporalAddressOf = (config: Config): string => temporalConnection(config).address;

/** A Temporal client on the environment's address and namespace; `close` ends its connection. */
export async function connectTemporal(
  config: Config,
): Promise<{ client: Client; close(): Promise<void> }> {
  const address = temporalAddressOf(config);
  let connection: Connection;
  try {
    connection = await Connection.connect({
      ...temporalConnection(config),
      connectTimeout: '5 seconds',
    });
  } catch (error) {
    throw new TemporalUnreachableError(address, { cause: error });
  }
  return {
    client: new Client({ connection, namespace: config.namespace }),
    close: () => connection.close(),
  };
}

/**
 * Batch re-evaluation over Temporal, checked against the app's deployed evaluators and, given
 * the store, the judge versions its workspaces record.
 */
export function reevaluationsOf(
  client: Client,
  store: StoreIdentity & Pick<EvaluationRecords, 'judgeVersions'>,
  config: Config,
  app: AppDefinition,
) {
  return new ReevaluationClient(
    client,
    store,
    config.taskQueue,
    app.evaluators,
    evaluatorTaskQueues(config.taskQueue, app.evaluatorLimits),
    store.judgeVersions,
  );
}

// Flag value parsers.

export function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65_535) {
    throw new InvalidArgumentError(`a port is a whole number from 1 to 65535, not ${value}`);
  }
  return n;
}

export function wholeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(`a whole number from 1, not ${value}`);
  }
  return n;
}

export function sampleRate(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(`a sample rate is a number from 0 to 1, not ${value}`);
  }
  return n;
}

/** A share of targets above 0 and at most 1 (`--sample 0.1`). */
export function fraction(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1) {
    throw new InvalidArgumentError(`a fraction is above 0 and at most 1, not ${value}`);
  }
  return n;
}

/** An amount of USD above 0 (`--max-cost-usd 12.5`). */
export function usdAmount(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new InvalidArgumentError(`an amount of USD above 0, not ${value}`);
  }
  // Money is counted in nano-dollars: less than half of one would be $0.
  if (nanosOf(n) < 1) {
    throw new InvalidArgumentError(`an amount of USD of at least 0.000000001, not ${value}`);
  }
  return n;
}

/** A duration (`--idle-for 30m`), by the core's one rule for them. */
export function duration(value: string): string {
  const problem = durationProblem(value);
  if (problem !== null) throw new InvalidArgumentError(problem);
  return value;
}

/** `a,b,c` as a list, without empty entries. */
export function commaList(value: string): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0) throw new InvalidArgumentError('name at least one, comma-separated');
  return items;
}

/** An ISO-8601 instant with a time zone (`2025-01-31T00:00:00Z`). */
export function instant(value: string): string {
  if (!/(Z|[+-]\d\d:\d\d)$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new InvalidArgumentError(
      `an ISO-8601 instant with a time zone (2025-01-31T00:00:00Z), not ${value}`,
    );
  }
  return value;
}

/**
 * The two flags of a half-open window of instants, at or after the first and before the second,
 * worded alike on every command that reads by time; `what` names what they bound ("runs started").
 */
export function withInstantWindow(
  command: Command,
  [from, to]: readonly [string, string],
  what: string,
): Command {
  return command
    .option(`${from} <instant>`, `only ${what} at or after this instant`, instant)
    .option(`${to} <instant>`, `only ${what} before this instant`, instant);
}

/** An id as every evalflow id is (1-128 characters, no control characters). */
export function identifier(value: string): string {
  const problem = idProblem(value);
  if (problem !== null) throw new InvalidArgumentError(`${problem}: ${JSON.stringify(value)}`);
  return value;
}

/** Variadic ids (`--artifact a b`, or `--artifact a --artifact b`). */
export const identifiers = (value: string, previous: string[] = []): string[] => [
  ...previous,
  identifier(value),
];

/** Refuses a command whose flags cannot work together. */
export function usage(message: string): never {
  throw new UsageError(message);
}

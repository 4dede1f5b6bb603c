import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type Config, loadApp, temporalConnection } from '../../config/index.js';
import { scoreBackend } from '../../config/score-backend.js';
import { counted } from '../../core/index.js';
import { migrations } from '../../store/index.js';
import { reasonOf, serverOf } from '../../store/postgres/connection-failures.js';
import { temporalAddressOf } from '../context.js';
import { CLI_INVOCATION } from '../presentation/invocation.js';
import { inspectDevServer } from './dev-server.js';

// `evalflow doctor`: each part the engine needs, checked the way the engine would use it, with
// what to do when it fails. Nothing is changed: the store is read without migrating it, and no
// process is stopped.

export interface Check {
  name: string;
  ok: boolean;
  /** What was found, in one line. */
  detail: string;
  /** What to do about a failure. */
  fix: string | null;
}

const pass = (name: string, detail: string): Check => ({ name, ok: true, detail, fix: null });
const fail = (name: string, detail: string, fix: string): Check => ({
  name,
  ok: false,
  detail,
  fix,
});

const TIMEOUT_MS = 5_000;
/** The schema version this evalflow's migrations end at. */
export const LATEST_SCHEMA = Math.max(...migrations.map((m) => m.version));

export async function runDoctor(
  config: Config,
  /** `cwd`: the folder the config file is found in (default: the process's); `.evalflow/` is `config.home`. */
  options: { configFile?: string; cwd?: string },
): Promise<Check[]> {
  const cwd = options.cwd ?? process.cwd();
  return [
    await checkConfigFile(config, options.configFile, cwd),
    await checkTemporal(config),
    await checkStore(config),
    await checkScoreSink(config),
    checkDevServer(resolve(cwd, config.home)),
  ];
}

export async function checkConfigFile(
  config: Config,
  file: string | undefined,
  cwd?: string,
): Promise<Check> {
  try {
    const { app, source } = await loadApp(config, { file, cwd });
    const versions = app.evaluators.list().length;
    return pass(
      'config',
      `app from ${source}: ${counted(versions, 'evaluator version')}, ${counted(app.rules.length, 'rule')}, ` +
        `${counted(app.feedbackTypes.list().length, 'feedback type')}`,
    );
  } catch (error) {
    return fail(
      'config',
      firstLine(error),
      'fix the file as the message says, or name another with --config or EVALFLOW_CONFIG',
    );
  }
}

export async function checkTemporal(config: Config): Promise<Check> {
  const address = temporalAddressOf(config);
  let connection: Connection;
  try {
    connection = await Connection.connect({
      ...temporalConnection(config),
      connectTimeout: TIMEOUT_MS,
    });
  } catch (error) {
    return fail(
      'temporal',
      `Temporal at ${address} did not answer (${firstLine(error)})`,
      config.temporalAddress
        ? 'start that Temporal server, or point TEMPORAL_ADDRESS at a running frontend'
        : 'start the engine (evalflow start runs a dev server there), or set TEMPORAL_ADDRESS',
    );
  }
  try {
    await connection.workflowService.describeNamespace({ namespace: config.namespace });
    return pass('temporal', `Temporal at ${address} answers; namespace ${config.namespace} exists`);
  } catch (error) {
    // gRPC NOT_FOUND: the server answers, the namespace is not there.
    if ((error as { code?: unknown }).code === 5) {
      return fail(
        'temporal',
        `Temporal at ${address} answers, but has no namespace ${config.namespace}`,
        `create it (temporal operator namespace create --namespace ${config.namespace}), or set TEMPORAL_NAMESPACE`,
      );
    }
    return fail(
      'temporal',
      `Temporal at ${address} could not describe namespace ${config.namespace} (${firstLine(error)})`,
      'check that the server is healthy and this client may read namespaces',
    );
  } finally {
    await connection.close();
  }
}

/** The store's schema version, read from its migrations table without migrating anything. */
export async function checkStore(config: Config): Promise<Check> {
  const { databaseUrl, sqlitePath } = config.store;
  let where: string;
  let version: number | null;
  try {
    if (databaseUrl) {
      where = `Postgres at ${serverOf(databaseUrl)}`;
      version = await postgresSchema(databaseUrl);
    } else {
      const path = resolve(sqlitePath);
      where = `SQLite at ${path}`;
      if (!existsSync(path)) {
        return pass('store', `${where} does not exist yet; evalflow start creates it`);
      }
      version = sqliteSchema(path);
    }
  } catch (error) {
    return fail(
      'store',
      `the store could not be read (${databaseUrl ? reasonOf(error) : firstLine(error)})`,
      databaseUrl
        ? 'check that Postgres runs and DATABASE_URL names a database this user may read'
        : 'check EVALFLOW_SQLITE_PATH names an evalflow SQLite file this user may read',
    );
  }
  if (version === null) {
    return pass('store', `${where} holds no evalflow tables yet; evalflow start creates them`);
  }
  if (version > LATEST_SCHEMA) {
    return fail(
      'store',
      `${where} is at schema version ${version}, newer than this evalflow knows (${LATEST_SCHEMA})`,
      'upgrade evalflow to the release that wrote this store',
    );
  }
  return pass(
    'store',
    version === LATEST_SCHEMA
      ? `${where} is at schema version ${version}, the latest`
      : `${where} is at schema version ${version} of ${LATEST_SCHEMA}; the next evalflow start migrates it`,
  );
}

function sqliteSchema(path: string): number | null {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
      .get();
    if (table === undefined) return null;
    const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as {
      version: number | null;
    };
    return row.version;
  } finally {
    db.close();
  }
}

async function postgresSchema(databaseUrl: string): Promise<number | null> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: TIMEOUT_MS,
  });
  // A failed connect emits 'error' as well as rejecting; without a listener it would crash.
  client.on('error', () => {});
  await client.connect();
  try {
    const found = await client.query(
      "SELECT to_regclass('schema_migrations') IS NOT NULL AS found",
    );
    if (!found.rows[0]?.found) return null;
    const row = await client.query('SELECT MAX(version) AS version FROM schema_migrations');
    const version = row.rows[0]?.version;
    return version === null || version === undefined ? null : Number(version);
  } finally {
    await client.end();
  }
}

/** Langfuse: its score configs can be listed with the keys. The file sink: its files can be written. */
export async function checkScoreSink(config: Config): Promise<Check> {
  if (config.langfuse !== null) {
    const { baseUrl } = config.langfuse;
    try {
      const statuses = await withTimeout(scoreBackend(config).configStore.statuses(), TIMEOUT_MS);
      return pass(
        'scores',
        `Langfuse at ${baseUrl} lists ${statuses.size} score configs with these keys`,
      );
    } catch (error) {
      return fail(
        'scores',
        `Langfuse at ${baseUrl} did not list score configs (${firstLine(error)})`,
        "check LANGFUSE_BASE_URL, and that LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY are the project's keys",
      );
    }
  }
  for (const [file, variable] of [
    [config.scoresFile, 'EVALFLOW_SCORES_FILE'],
    [config.scoreConfigsFile, 'EVALFLOW_SCORE_CONFIGS_FILE'],
  ] as const) {
    const problem = unwritable(resolve(file));
    if (problem !== null) {
      return fail('scores', problem, `make it writable, or set ${variable} to a writable place`);
    }
  }
  return pass(
    'scores',
    `no Langfuse keys: scores go to ${resolve(config.scoresFile)}, which can be written`,
  );
}

/** Why a file cannot be written (or created, with the folders it needs); null when it can. */
function unwritable(path: string): string | null {
  if (existsSync(path)) {
    if (!statSync(path).isFile()) return `${path} is not a file`;
    return canWrite(path) ? null : `${path} is not writable`;
  }
  // The nearest existing ancestor must be a folder this user may write: the rest gets created.
  let folder = dirname(path);
  while (!existsSync(folder)) folder = dirname(folder);
  if (!statSync(folder).isDirectory())
    return `${folder} is not a folder, so ${path} cannot be made`;
  return canWrite(folder) ? null : `${folder} is not writable, so ${path} cannot be made`;
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A dev server left running by an `evalflow start` that crashed (`.evalflow/temporal.pid`). */
export function checkDevServer(home: string): Check {
  const status = inspectDevServer(home);
  switch (status.state) {
    case 'none':
      return pass('dev server', `no dev server recorded in ${home}`);
    case 'stale':
      return pass(
        'dev server',
        `the pid file names no running dev server (pid ${status.record.pid}); the next start removes it`,
      );
    case 'owned':
      return pass(
        'dev server',
        `dev server pid ${status.record.pid} (port ${status.record.port}) belongs to evalflow start pid ${status.record.owner.pid}, still running`,
      );
    case 'leftover':
      return fail(
        'dev server',
        `dev server pid ${status.record.pid} (port ${status.record.port}) is left over from an evalflow start that is gone`,
        `run ${CLI_INVOCATION} start here (it stops the leftover first), or kill ${status.record.pid}`,
      );
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000}s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}

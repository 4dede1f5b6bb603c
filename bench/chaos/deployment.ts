import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection } from '@temporalio/client';
import Database from 'better-sqlite3';
import { issueCredential, parsePrincipal } from '../../src/api/index.js';
import {
  type DevServer,
  type DevServerOptions,
  startDevServer,
} from '../../src/cli/supervision/dev-server.js';
import { freePort } from '../../src/cli/supervision/free-port.js';
import { ENVIRONMENT } from '../../src/config/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { whenReady } from '../../src/workflow-clients/temporal-ready.js';
import app from './chaos.config.js';

// evalflow deployed as a user deploys it, for the chaos scenarios: a Temporal dev server, and
// `evalflow api` (and, when asked, `evalflow worker`) as separate processes from the sources, on
// one SQLite file (WAL) that this process opens too, to issue keys and to read the log the
// processes write. Any of the processes can be SIGKILLed and started again on the same state.
// No vitest here: the bench and the tests both use it.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cliMain = join(repoRoot, 'src', 'cli', 'main.ts');
const configFile = fileURLToPath(new URL('./chaos.config.ts', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

export { app };

export interface Deployment {
  readonly url: string;
  readonly dir: string;
  readonly store: Store;
  readonly scoresFile: string;
  /**
   * Everything a request could have stored, as one comparable line: each workspace's log head,
   * the credentials, the ledgers, and the score and score-config files' sizes. (Remembered
   * idempotent answers are left out: a refusal is remembered on purpose.)
   */
  snapshot(): string;
  /** A new key for a principal (`system`, `user:ada`, ...) in a workspace (default `ws`). */
  key(principal: string, workspace?: string): Promise<string>;
  /** SIGKILLs the API process, or the worker's; resolves once it is gone. */
  kill(process: 'api' | 'worker'): Promise<void>;
  /** Starts the API (on the same port) or the worker again; resolves once it serves. */
  restart(process: 'api' | 'worker'): Promise<void>;
  /** SIGKILLs the Temporal dev server and starts it again on the same port and state file. */
  crashTemporal(): Promise<void>;
  close(): Promise<void>;
}

export interface DeploymentOptions {
  /** The `temporal` CLI executable. */
  temporalCli: string;
  /** Whether an `evalflow worker` runs beside the API (default false: nothing appends but HTTP). */
  worker?: boolean;
  /** Extra environment for both processes. */
  env?: NodeJS.ProcessEnv;
  /**
   * Where its ports come from (default: the OS picks). A port the OS picks can be taken by
   * another process's outgoing connection before the server binds it; tests pass their own.
   */
  freePort?: () => Promise<number>;
}

export async function startDeployment(options: DeploymentOptions): Promise<Deployment> {
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-chaos-'));
  const sqlitePath = join(dir, 'evalflow.db');
  const scoresFile = join(dir, 'scores.jsonl');
  const pickPort = options.freePort ?? freePort;
  const devServerOptions = {
    cliPath: options.temporalCli,
    namespace: 'default',
    port: await pickPort(),
    uiPort: await pickPort(),
    home: dir,
    log: () => {},
  };
  let server: DevServer = await startAnswering(devServerOptions);
  const apiPort = await pickPort();
  // The parent's evalflow settings (a CI's DATABASE_URL, say) must not leak in.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !(name in ENVIRONMENT)),
  );
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    TEMPORAL_ADDRESS: server.address,
    EVALFLOW_TASK_QUEUE: 'chaos',
    EVALFLOW_SQLITE_PATH: sqlitePath,
    EVALFLOW_SCORES_FILE: scoresFile,
    EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
    EVALFLOW_API_RATE_LIMIT: '100000000',
    ...options.env,
  };
  const children: Partial<Record<'api' | 'worker', ChildProcess>> = {};
  const launch = async (which: 'api' | 'worker') => {
    const args = which === 'api' ? ['api', '--api-port', String(apiPort)] : ['worker'];
    const child = spawn(
      process.execPath,
      [
        '--conditions=evalflow-source',
        '--import',
        tsxLoader,
        cliMain,
        ...args,
        '--config',
        configFile,
      ],
      { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children[which] = child;
    await readyLine(child, which === 'api' ? /evalflow: API at/ : /evalflow: worker polling/);
  };

  let store: Store | null = null;
  try {
    await launch('api');
    store = openSqliteStore(sqlitePath, app);
    if (options.worker) await launch('worker');
  } catch (error) {
    for (const child of Object.values(children)) child?.kill('SIGKILL');
    await server.stop();
    throw error;
  }
  const opened = store;
  const reader = new Database(sqlitePath, { readonly: true, fileMustExist: true });
  const scoreConfigsFile = join(dir, 'score-configs.jsonl');
  const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);
  const snapshot = () => {
    const heads = reader
      .prepare('SELECT workspace_id, max(seq) AS head FROM events GROUP BY workspace_id ORDER BY 1')
      .all() as { workspace_id: string; head: number }[];
    const count = (table: string) =>
      (reader.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return [
      heads.map((row) => `${row.workspace_id}:${row.head}`).join(','),
      `keys:${count('api_keys')}`,
      `evaluations:${count('evaluation_ledger')}`,
      `scores:${count('score_ledger')}`,
      `score-file:${sizeOf(scoresFile)}`,
      `config-file:${sizeOf(scoreConfigsFile)}`,
    ].join(' ');
  };
  const kill = async (which: 'api' | 'worker') => {
    const child = children[which];
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };
  return {
    url: `http://127.0.0.1:${apiPort}`,
    dir,
    store: opened,
    scoresFile,
    snapshot,
    async key(principal, workspace = 'ws') {
      const parsed = parsePrincipal(principal);
      if (parsed === null) throw new Error(`not a principal: ${principal}`);
      return (
        await issueCredential(opened, { kind: 'key', workspaceId: workspace, principal: parsed })
      ).key;
    },
    kill,
    restart: launch,
    async crashTemporal() {
      const exited = once(server.child, 'exit');
      server.child.kill('SIGKILL');
      await exited;
      server = await startAnswering(devServerOptions);
    },
    async close() {
      await kill('worker');
      await kill('api');
      reader.close();
      await opened.close();
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The dev server, once it answers: a server that exits first (a port taken, say) fails here with
 * its log, rather than as the API's wait for Temporal a minute later.
 */
async function startAnswering(options: DevServerOptions): Promise<DevServer> {
  const server = await startDevServer(options);
  try {
    const connection = await whenReady(
      { address: server.address },
      (connect) => Connection.connect(connect),
      { timeoutMs: 120_000, server: server.child },
    );
    await connection.close();
    return server;
  } catch (error) {
    await server.stop();
    throw new Error(`the dev server did not answer:\n${readFileSync(server.logFile, 'utf8')}`, {
      cause: error,
    });
  }
}

/** Resolves once the process prints `pattern`; rejects, with what it printed, if it exits first. */
export function readyLine(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = 120_000,
): Promise<void> {
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${output}`)), timeoutMs);
    const check = () => {
      if (!pattern.test(output)) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.stdout?.off('data', collect);
      child.stderr?.off('data', collect);
      child.off('exit', early);
      // Keep draining its output (a log line per request), or it blocks on a full pipe.
      child.stdout?.resume();
      child.stderr?.resume();
      resolve();
    };
    const early = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}:\n${output}`));
    };
    child.stdout?.on('data', check);
    child.once('exit', early);
  });
}

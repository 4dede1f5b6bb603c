import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { issueCredential, parsePrincipal } from '../../src/api/index.js';
import { startDevServer } from '../../src/cli/supervision/dev-server.js';
import { freePort } from '../../src/cli/supervision/free-port.js';
import { ENVIRONMENT } from '../../src/config/index.js';
import { relayLeaseName } from '../../src/relay/follow-workspaces.js';
import { openPostgresStore } from '../../src/store/index.js';
import type { LangfuseTestServer } from '../../test/support/langfuse-server/index.js';
import { freshDatabase } from '../../test/support/scale-load.js';
import { startWorkerProcess, type WorkerProcess } from '../../test/support/worker-processes.js';
import { app, readyLine } from './deployment.js';
import { countDuplicateFeedback, countDuplicateScores, post } from './worker-kills.js';

// Scenario 6: two `evalflow api` and two `evalflow worker` processes on one Postgres database and
// one Temporal dev server. Concurrent clients report runs spread over both APIs (a thread, a run,
// one assistant message, the run's end) and the app's three evaluators judge each message. At
// even shares of the runs, the worker holding the workspace's relay lease (the one that printed
// `evalflow: relaying workspace ws`, checked against pg_locks) is SIGKILLed; the other must take
// the relay over (Postgres frees the advisory lock with the dead session), and the killed one is
// started again. Afterwards: every run has its three verdicts, no feedback event and no Langfuse
// score is there twice, and at no sampled moment did two live workers relay the workspace.

const EVALUATORS = 3;
const WORKSPACE = 'ws';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const cliMain = join(repoRoot, 'src', 'cli', 'main.ts');
const configFile = fileURLToPath(new URL('./chaos.config.ts', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

// The processes holding the workspace's relay lease, as Postgres sees it: a session-level advisory
// lock on a 64-bit key (pg_locks splits it into classid and objid) held by a session whose
// application_name names its process (`evalflow leases (pid N)`).
const LEASE_HOLDERS =
  'SELECT DISTINCT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid ' +
  "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 " +
  'AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) ' +
  "AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended($1 || ':' || $2, 0)";

export interface TwoOfEverythingOptions {
  temporalCli: string;
  /** A Postgres server; the scenario creates a database of its own on it and drops it after. */
  postgresUrl: string;
  langfuse: LangfuseTestServer;
  runs: number;
  /** How many times the lease holder is killed, at even shares of the runs. */
  kills: number;
  clients: number;
  /** How long, after the clients are done, verdicts may take to arrive. */
  settleMs?: number;
}

/** One SIGKILL of the lease holder. */
export interface Kill {
  /** Runs reported, and runs with all their verdicts, when it was killed. */
  reportedAtKill: number;
  judgedAtKill: number;
  /** Whether pg_locks named the worker that said it relays as the holder. */
  holderAgrees: boolean;
  /** Seconds from the signal to the other worker saying it relays. */
  relaySeconds: number;
  /** The same, to the other worker's process holding the lease in pg_locks. */
  leaseSeconds: number;
}

export interface TwoOfEverythingFigures {
  runs: number;
  /** Runs acknowledged by each API. */
  runsPerApi: [number, number];
  kills: Kill[];
  missingVerdicts: number;
  duplicateFeedback: number;
  scores: number;
  duplicateScoresById: number;
  duplicateScoresByTarget: number;
  /** The most live workers seen saying they relay the workspace at once (goal 1). */
  maxSimultaneousRelays: number;
  /** The most processes seen holding the workspace's lease in pg_locks at once (goal 1). */
  maxLeaseHolders: number;
  /** Seconds from the last run reported to the last verdict. */
  drainSeconds: number;
}

export async function twoOfEverything(
  options: TwoOfEverythingOptions,
): Promise<TwoOfEverythingFigures> {
  const database = await freshDatabase(options.postgresUrl);
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-chaos-two-'));
  const server = await startDevServer({
    cliPath: options.temporalCli,
    namespace: 'default',
    port: await freePort(),
    uiPort: await freePort(),
    home: dir,
    log: () => {},
  });
  // The parent's evalflow settings (a CI's DATABASE_URL, say) must not leak in.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !(name in ENVIRONMENT)),
  );
  const env = (own: string): NodeJS.ProcessEnv => ({
    ...inherited,
    DATABASE_URL: database.url,
    TEMPORAL_ADDRESS: server.address,
    EVALFLOW_TASK_QUEUE: 'chaos',
    EVALFLOW_CONFIG: configFile,
    EVALFLOW_SCORES_FILE: join(own, 'scores.jsonl'),
    EVALFLOW_SCORE_CONFIGS_FILE: join(own, 'score-configs.jsonl'),
    EVALFLOW_API_RATE_LIMIT: '100000000',
    LANGFUSE_BASE_URL: options.langfuse.url,
    LANGFUSE_PUBLIC_KEY: options.langfuse.publicKey,
    LANGFUSE_SECRET_KEY: options.langfuse.secretKey,
  });
  const ownDir = (name: string) => {
    const own = join(dir, name);
    mkdirSync(own, { recursive: true });
    return own;
  };

  const apis: ChildProcess[] = [];
  const workers: WorkerProcess[] = [];
  const startWorker = async (slot: number) => {
    const own = ownDir(`worker-${slot}`);
    const worker = startWorkerProcess({ cwd: own, env: env(own) });
    workers[slot] = worker;
    await worker.ready;
  };
  const startApi = async (port: number) => {
    const own = ownDir(`api-${port}`);
    const child = spawn(
      process.execPath,
      [
        '--conditions=evalflow-source',
        '--import',
        tsxLoader,
        cliMain,
        'api',
        '--api-port',
        `${port}`,
      ],
      { cwd: own, env: env(own), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    apis.push(child);
    await readyLine(child, /evalflow: API at/);
  };
  const live = (worker: WorkerProcess) =>
    worker.child.exitCode === null && worker.child.signalCode === null;
  const stop = async (child: ChildProcess) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  };

  const ports = [await freePort(), await freePort()];
  const urls = ports.map((port) => `http://127.0.0.1:${port}`) as [string, string];
  let store: Awaited<ReturnType<typeof openPostgresStore>> | null = null;
  const locks = new pg.Client({ connectionString: database.url });
  try {
    await locks.connect();
    // Both at once: two processes migrating one fresh database is part of the scenario.
    await Promise.all(ports.map(startApi));
    await Promise.all([startWorker(0), startWorker(1)]);
    store = await openPostgresStore({ databaseUrl: database.url }, app);
    const opened = store;
    const agent = parsePrincipal('agent');
    if (agent === null) throw new Error('not a principal: agent');
    const { key } = await issueCredential(opened, {
      kind: 'key',
      workspaceId: WORKSPACE,
      principal: agent,
    });

    const reported = new Map<number, number>(); // run -> when its end was acknowledged
    const judged = new Map<number, number>(); // run -> when its last verdict was seen
    const verdictsOf = async () => {
      const perRun = new Map<number, number>();
      for (const entry of await opened.ledger.evaluations(WORKSPACE)) {
        const match = /m(\d+)/.exec(entry.target_key);
        if (match) perRun.set(Number(match[1]), (perRun.get(Number(match[1])) ?? 0) + 1);
      }
      return perRun;
    };
    const leaseHolders = async (): Promise<number[]> =>
      (
        await locks.query<{ application_name: string }>(LEASE_HOLDERS, [
          opened.id,
          relayLeaseName(WORKSPACE),
        ])
      ).rows.map((row) => Number(/pid (\d+)/.exec(row.application_name)?.[1] ?? -1));
    let watching = true;
    let maxSimultaneousRelays = 0;
    let maxLeaseHolders = 0;
    const watcher = (async () => {
      while (watching) {
        const relays = workers.filter((w) => live(w) && w.relaying.has(WORKSPACE)).length;
        maxSimultaneousRelays = Math.max(maxSimultaneousRelays, relays);
        maxLeaseHolders = Math.max(maxLeaseHolders, (await leaseHolders()).length);
        const now = Date.now();
        for (const [run, count] of await verdictsOf()) {
          if (count >= EVALUATORS && !judged.has(run)) judged.set(run, now);
        }
        await sleep(250);
      }
    })();

    // The runs after kill k's share wait until it is over (the holder killed, the relay moved, the
    // killed one started again), so each kill falls the moment its share is reported, with that
    // share's runs still in flight, whatever the machine's speed.
    const share = (kill: number) => Math.floor((options.runs * (kill + 1)) / (options.kills + 1));
    const gates = Array.from({ length: options.kills }, () => {
      let open = () => {};
      const opened = new Promise<void>((resolve) => {
        open = resolve;
      });
      return { opened, open };
    });
    let next = 0;
    const runsPerApi: [number, number] = [0, 0];
    const writing = Promise.all(
      Array.from({ length: options.clients }, async (_, client) => {
        const api = (client % 2) as 0 | 1;
        const url = urls[api];
        for (;;) {
          const i = next++;
          if (i >= options.runs) return;
          const gate = gates.findLastIndex((_, kill) => i >= share(kill));
          if (gate >= 0) await gates[gate]?.opened;
          await post(url, key, '/v1/threads', { threadId: `t${i}` });
          await post(url, key, `/v1/threads/t${i}/runs`, {
            runId: `r${i}`,
            traceId: i.toString(16).padStart(32, '0'),
          });
          await post(url, key, `/v1/threads/t${i}/messages`, {
            messageId: `m${i}`,
            role: 'ROLE_ASSISTANT',
            content: i % 2 === 0 ? 'Thank you for asking.' : 'x'.repeat(i % 200),
            runId: `r${i}`,
          });
          await post(url, key, `/v1/runs/r${i}/end`, { status: 'completed' });
          reported.set(i, Date.now());
          runsPerApi[api] += 1;
        }
      }),
    );

    // At each share, once a worker holds the lease: kill the holder, time the takeover (by its
    // line and in pg_locks, from the moment the signal is sent), start it again.
    const kills: Kill[] = [];
    for (let kill = 0; kill < options.kills; kill++) {
      const deadline = Date.now() + 300_000;
      const waitFor = async (done: () => boolean | Promise<boolean>, what: string) => {
        while (!(await done())) {
          if (Date.now() > deadline) throw new Error(`two of everything: ${what}`);
          await sleep(50);
        }
      };
      let slot = -1;
      await waitFor(() => {
        slot = workers.findIndex((w) => live(w) && w.relaying.has(WORKSPACE));
        return slot >= 0 && reported.size >= share(kill);
      }, 'no worker took the relay');
      const victim = workers[slot] as WorkerProcess;
      const other = workers[1 - slot] as WorkerProcess;
      const holderAgrees = (await leaseHolders()).join() === String(victim.pid);
      const reportedAtKill = reported.size;
      const judgedAtKill = judged.size;
      const killedAt = Date.now();
      await stop(victim.child);
      const seconds = () => Number(((Date.now() - killedAt) / 1000).toFixed(1));
      let relaySeconds = Number.POSITIVE_INFINITY;
      let leaseSeconds = Number.POSITIVE_INFINITY;
      await waitFor(async () => {
        if (!Number.isFinite(relaySeconds) && other.relaying.has(WORKSPACE)) {
          relaySeconds = seconds();
        }
        if (!Number.isFinite(leaseSeconds) && (await leaseHolders()).includes(other.pid)) {
          leaseSeconds = seconds();
        }
        return Number.isFinite(relaySeconds) && Number.isFinite(leaseSeconds);
      }, 'the relay never moved');
      kills.push({ reportedAtKill, judgedAtKill, holderAgrees, relaySeconds, leaseSeconds });
      await startWorker(slot);
      gates[kill]?.open();
    }

    await writing;
    const lastReported = Date.now();
    const settle = Date.now() + (options.settleMs ?? 300_000);
    while (judged.size < options.runs && Date.now() < settle) await sleep(500);
    watching = false;
    await watcher;

    const perRun = await verdictsOf();
    const missingVerdicts = Array.from({ length: options.runs }, (_, i) => i).filter(
      (i) => (perRun.get(i) ?? 0) < EVALUATORS,
    ).length;
    const duplicateFeedback = await countDuplicateFeedback(opened, WORKSPACE);
    const duplicateScores = await countDuplicateScores(options.langfuse);
    return {
      runs: options.runs,
      runsPerApi,
      kills,
      missingVerdicts,
      duplicateFeedback,
      scores: duplicateScores.scores,
      duplicateScoresById: duplicateScores.byId,
      duplicateScoresByTarget: duplicateScores.byTarget,
      maxSimultaneousRelays,
      maxLeaseHolders,
      drainSeconds: Number(
        (Math.max(0, Math.max(0, ...judged.values()) - lastReported) / 1000).toFixed(1),
      ),
    };
  } finally {
    await Promise.all([...workers.map((w) => stop(w.child)), ...apis.map(stop)]);
    await locks.end();
    await store?.close();
    await server.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

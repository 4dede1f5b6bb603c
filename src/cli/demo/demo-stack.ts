import { join } from 'node:path';
import { type AppDefinition, loadConfig } from '../../config/index.js';
import { operationsLog } from '../../metrics/index.js';
import { issueCredential } from '../../wire/credentials.js';
import { parsePrincipal } from '../../wire/principals.js';
import { CLI_INVOCATION } from '../presentation/invocation.js';
import { type DevServer, startDevServer } from '../supervision/dev-server.js';
import { freePort } from '../supervision/free-port.js';
import type { Service } from '../supervision/run-until-stopped.js';
import { ensureTemporalCli } from '../supervision/setup.js';

// The engine the demo talks to, in this process and on embedded defaults, all of it in one
// folder: a Temporal dev server, a SQLite store, JSONL score files, a worker with its relays
// (paused runs abandoned after a short window) and the HTTP API on free loopback ports.

export interface DemoEngine {
  /** The HTTP API's root. */
  url: string;
  /** Why the reviewers' page cannot be served; null when it is. */
  pageProblem: string | null;
  temporalAddress: string;
  /** A new key for a principal (`agent`, `user:ada`, ...) in the workspace. */
  key(workspace: string, principal: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startDemoEngine(options: {
  app: AppDefinition;
  home: string;
  abandonAfterMs: number;
  log: (line: string) => void;
}): Promise<DemoEngine> {
  const cli = await ensureTemporalCli();
  if (cli.source === 'sdk-download') {
    throw new Error(
      `the demo needs the temporal CLI on disk; run ${CLI_INVOCATION} setup, or set TEMPORAL_CLI_PATH`,
    );
  }
  const [port, uiPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const server: DevServer = await startDevServer({
    cliPath: cli.path,
    namespace: 'default',
    port,
    uiPort,
    home: options.home,
    log: options.log,
  });
  const services: Service[] = [];
  const stop = async () => {
    for (const service of services.reverse()) await service.stop().catch(() => {});
    await server.stop();
  };
  try {
    // Only the binaries come from the environment: everything else is the embedded default,
    // inside the demo's folder.
    const config = loadConfig({
      TEMPORAL_ADDRESS: server.address,
      EVALFLOW_TASK_QUEUE: 'evalflow-demo',
      EVALFLOW_SQLITE_PATH: join(options.home, 'evalflow.db'),
      EVALFLOW_SCORES_FILE: join(options.home, 'scores.jsonl'),
      EVALFLOW_SCORE_CONFIGS_FILE: join(options.home, 'score-configs.jsonl'),
      EVALFLOW_API_PORT: String(apiPort),
    });
    const temporal = { address: server.address };
    // Loaded here, as `evalflow api` loads it: a worker alone starts without the API's modules.
    const { startEngineWithApi } = await import('../../processes/index.js');
    const { engine, api } = await startEngineWithApi(
      {
        config,
        app: options.app,
        temporal,
        abandonAfterMs: options.abandonAfterMs,
        relayPollMs: 200,
        // The demo prints its own tables, as it logs no requests: only what went wrong, on stderr.
        operations: operationsLog({ format: 'text', stream: process.stderr, level: 'warn' }),
      },
      { logRequests: false },
    );
    services.push(engine, api);
    const store = engine.deps.store;
    return {
      url: api.url,
      pageProblem: api.pageProblem,
      temporalAddress: server.address,
      async key(workspace, principal) {
        const parsed = parsePrincipal(principal);
        if (parsed === null) throw new Error(`not a principal: ${principal}`);
        const issued = await issueCredential(store, {
          kind: 'key',
          workspaceId: workspace,
          principal: parsed,
          name: 'evalflow demo',
        });
        return issued.key;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

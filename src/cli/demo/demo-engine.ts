import { join } from 'node:path';
import { issueCredential, parsePrincipal } from '../../api/index.js';
import { type AppDefinition, loadConfig } from '../../config/index.js';
import type { Store } from '../../store/index.js';
import { type DevServer, startDevServer } from '../dev-server.js';
import { freePort } from '../free-port.js';
import { type Service, serveApi, serveWorker } from '../serve.js';
import { ensureTemporalBinaries } from '../setup.js';

// The engine the demo talks to, in this process and on embedded defaults, all of it in one
// folder: a Temporal dev server, a SQLite store, JSONL score files, a worker with its relays
// (paused runs abandoned after a short window) and the HTTP API on free loopback ports.

export interface DemoEngine {
  /** The HTTP API's root. */
  url: string;
  temporalAddress: string;
  store: Store;
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
  const binaries = await ensureTemporalBinaries();
  if (binaries.cli.source === 'sdk-download') {
    throw new Error(
      'the demo needs the temporal CLI on disk; run evalflow setup, or set TEMPORAL_CLI_PATH',
    );
  }
  const [port, uiPort, apiPort] = [await freePort(), await freePort(), await freePort()];
  const server: DevServer = await startDevServer({
    cliPath: binaries.cli.path,
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
    const worker = await serveWorker(
      config,
      options.app,
      { address: server.address },
      {
        abandonAfterMs: options.abandonAfterMs,
        pollMs: 200,
      },
    );
    services.push(worker);
    const api = await serveApi(
      config,
      options.app,
      { address: server.address },
      {
        store: worker.engine.store,
        onScoreConfigsChanged: () => worker.engine.forgetScoreConfigs(),
      },
      false,
    );
    services.push(api);
    const store = worker.engine.store;
    return {
      url: api.url,
      temporalAddress: server.address,
      store,
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

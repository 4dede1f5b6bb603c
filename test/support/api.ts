import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import ajvFormats from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';
import { expect } from 'vitest';
import {
  type Api,
  type ApiOptions,
  buildApi,
  issueCredential,
  parsePrincipal,
} from '../../src/api/index.js';
import { type AppDefinition, loadConfig } from '../../src/config/index.js';
import { followWorkspaces } from '../../src/relay/index.js';
import { type EngineDeps, openEngineDeps } from '../../src/worker/index.js';
import { testWorker, uniqueTaskQueue } from './temporal.js';

// The HTTP API with its real parts, in this process: the engine an app runs (SQLite store, JSONL
// score files, the app's score configs synced), a worker on the dev server, the relays, and the
// API listening on a loopback port. Every response a test reads is checked against the API's own
// OpenAPI document.

export interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON the API answered
  body: any;
  headers: Headers;
}

export interface ApiHarness {
  url: string;
  api: Api;
  engine: EngineDeps;
  /** The JSONL file the engine's scores go to. */
  scoresFile: string;
  /** A new key for a principal (`system`, `user:ada`, ...) in a workspace (default `ws`). */
  key(principal: string, workspace?: string): Promise<string>;
  call(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Reply>;
  close(): Promise<void>;
}

export async function startApi(
  env: TestWorkflowEnvironment,
  app: AppDefinition,
  options: {
    /** The API's clock (default: the system's): lease expiry is tested by moving it. */
    now?: () => Date;
    /**
     * The folder of the store and score files, kept on close: a harness started again on it (and
     * on the same task queue) is the API and engine restarted on the same state.
     */
    dir?: string;
    taskQueue?: string;
    /** The reviewers' page it serves (default: this checkout's dist/ui). */
    uiRoot?: string;
    /** The OTLP receiver's settings (default: the engine's defaults). */
    traces?: ApiOptions['traces'];
  } = {},
): Promise<ApiHarness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'evalflow-api-'));
  const config = loadConfig({
    EVALFLOW_SQLITE_PATH: join(dir, 'evalflow.db'),
    EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
    EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
  });
  const engine = await openEngineDeps(config, app);
  const taskQueue = options.taskQueue ?? uniqueTaskQueue('api');
  const worker: Worker = await testWorker(env, taskQueue, engine.activities);
  const running = worker.run();
  const relays = followWorkspaces({
    store: engine.store,
    client: env.client,
    taskQueue,
    rules: app.rules,
    evaluators: app.evaluators,
    reviewQueues: app.reviewQueues,
    pollMs: 100,
  });
  const api = await buildApi({
    store: engine.store,
    app,
    temporal: { client: env.client, taskQueue },
    scoreConfigs: engine.configStore,
    onScoreConfigsChanged: () => engine.forgetScoreConfigs(),
    logger: false,
    ...(options.now ? { now: options.now } : {}),
    ...(options.uiRoot ? { uiRoot: options.uiRoot } : {}),
    ...(options.traces ? { traces: options.traces } : {}),
  });
  const url = await api.listen({ host: '127.0.0.1', port: 0 });
  const spec = new OpenAPIBackend({
    definition: (await (await fetch(`${url}/openapi.json`)).json()) as never,
    strict: true,
    customizeAjv: (ajv) => {
      ajvFormats.default(ajv);
      return ajv;
    },
  });
  // openapi-backend checks a document against OpenAPI 3.0 only; the API's 3.1 document is checked
  // whole by a 3.1 validator in the API test, so here it only validates responses.
  spec.validateDefinition = () => spec.document;
  await spec.init();

  return {
    url,
    api,
    engine,
    scoresFile: config.scoresFile,
    async key(principal, workspace = 'ws') {
      const parsed = parsePrincipal(principal);
      if (parsed === null) throw new Error(`not a principal: ${principal}`);
      return (
        await issueCredential(engine.store, {
          kind: 'key',
          workspaceId: workspace,
          principal: parsed,
        })
      ).key;
    },
    async call(method, path, options = {}) {
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        ...(options.body !== undefined
          ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
          : {}),
      });
      const text = await response.text();
      const body = text === '' ? null : JSON.parse(text);
      const operation = spec.matchOperation({
        method,
        path: path.split('?')[0] ?? path,
        headers: {},
      });
      if (operation) {
        const checked = spec.validateResponse(body, operation, response.status);
        expect(
          checked.errors ?? [],
          `${method} ${path} ${response.status} against the OpenAPI document`,
        ).toEqual([]);
      }
      return { status: response.status, body, headers: response.headers };
    },
    async close() {
      await api.close();
      await relays.close();
      worker.shutdown();
      await running;
      await engine.close();
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

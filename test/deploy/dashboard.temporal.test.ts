import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { issueCredential } from '../../src/api/index.js';
import { builtinApp } from '../../src/config/index.js';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { freePort } from '../support/free-port.js';
import { embeddedDefaults, eventually, runCli, waitForLine } from '../support/processes.js';
import { devServerEnvironment, sharedTemporalEnv, uniqueTaskQueue } from '../support/temporal.js';

// The dashboard and the alerts name only metrics the processes really expose: `evalflow worker`
// and `evalflow api` run as a deployment runs them, each with a metrics port of its own, a run
// goes through the API to its verdicts and scores, and both endpoints are scraped.

const home = mkdtempSync(join(tmpdir(), 'evalflow-dashboard-'));
let env: TestWorkflowEnvironment;
let store: Store;
const children: ReturnType<typeof runCli>[] = [];
const scraped = { worker: '', api: '' };
const ports = { api: 0, workerMetrics: 0, apiMetrics: 0 };

/** Every series name a scrape exposes (histograms as their `_bucket`, `_sum`, `_count`). */
const seriesIn = (text: string) =>
  new Set(
    text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0] ?? ''),
  );

/**
 * The metric names a PromQL expression reads: identifiers of evalflow's, Temporal's and the
 * process's families, once strings, label matchers and durations are taken out (label names and
 * functions never carry those prefixes).
 */
const metricsOf = (expr: string) => [
  ...new Set(
    expr
      .replace(/"(?:[^"\\]|\\.)*"/g, '""')
      .replace(/\{[^}]*\}/g, '')
      .replace(/\[[^\]]*\]/g, '')
      .match(/\b(?:evalflow|temporal|process|nodejs)_[a-zA-Z0-9_]*/g) ?? [],
  ),
];

interface Panel {
  title: string;
  type: string;
  targets?: { expr: string }[];
}
const dashboard = JSON.parse(readFileSync('deploy/grafana/dashboards/evalflow.json', 'utf8')) as {
  panels: Panel[];
};
const alerts = parse(readFileSync('deploy/prometheus/alerts.yml', 'utf8')) as {
  groups: { rules: { alert: string; expr: string }[] }[];
};
const queries = [
  ...dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ where: `panel ${panel.title}`, expr: target.expr })),
  ),
  ...alerts.groups.flatMap((group) =>
    group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
  ),
];

async function call(method: string, path: string, key: string, body?: object) {
  return fetch(`http://127.0.0.1:${ports.api}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
}

beforeAll(async () => {
  env = await devServerEnvironment();
  [ports.api, ports.workerMetrics, ports.apiMetrics] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
  ]);
  const common = {
    ...embeddedDefaults(),
    ...sharedTemporalEnv(env),
    EVALFLOW_TASK_QUEUE: uniqueTaskQueue('dashboard'),
  };
  const worker = runCli(['worker', '--metrics-port', String(ports.workerMetrics)], {
    cwd: home,
    env: common,
  });
  children.push(worker);
  await waitForLine(worker, /worker polling/);
  const api = runCli(['api', '--api-port', String(ports.api)], {
    cwd: home,
    env: { ...common, EVALFLOW_METRICS_PORT: String(ports.apiMetrics) },
  });
  children.push(api);
  await waitForLine(api, /metrics at/);

  store = openSqliteStore(join(home, '.evalflow', 'evalflow.db'), builtinApp(null));
  const { key } = await issueCredential(store, {
    kind: 'key',
    workspaceId: 'watched',
    principal: { kind: 'system' },
  });
  // A budget of the workspace's own, so the API's endpoint shows the budgets' gauges.
  const budget = { evaluator: 'turn_outcome', period: 'day', limitUsd: 0.5, onExhausted: 'skip' };
  expect((await call('PUT', '/v1/budgets/turns', key, budget)).status).toBe(200);
  expect((await call('POST', '/v1/threads', key, { threadId: 't' })).status).toBe(201);
  expect((await call('POST', '/v1/threads/t/runs', key, { runId: 'r' })).status).toBe(201);
  const answer = { role: 'ROLE_ASSISTANT', content: '{"ok": true}', runId: 'r' };
  expect((await call('POST', '/v1/threads/t/messages', key, answer)).status).toBe(201);
  expect((await call('POST', '/v1/runs/r/end', key, { status: 'completed' })).status).toBe(200);
  expect((await call('GET', '/v1/threads/nobody/conversation', key)).status).toBe(404);
  expect((await call('GET', '/v1/no/such/route', key)).status).toBe(404);
  // The built-in evaluators judge the turn and the answer; their verdicts become scores.
  await eventually(
    async () => (await store.ledger.evaluations('watched')).length,
    (n) => n === 4,
  );
  const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  scraped.worker = await eventually(
    () => scrape(ports.workerMetrics),
    (text) =>
      /^evalflow_mirror_score_writes_total\{sink="file"\} [1-9]/m.test(text) &&
      /^temporal_workflow_completed_total\{/m.test(text),
  );
  scraped.api = await scrape(ports.apiMetrics);
}, 180_000);

afterAll(async () => {
  for (const child of children) child.kill('SIGINT');
  await Promise.all(children.map((child) => (child.exitCode === null ? once(child, 'exit') : 0)));
  await store?.close();
  await env?.teardown();
  rmSync(home, { recursive: true, force: true });
});

describe("the dashboard's and the alerts' queries", () => {
  it('each name at least one metric', () => {
    expect(queries.length).toBeGreaterThan(20);
    for (const { where, expr } of queries) expect(metricsOf(expr), where).not.toEqual([]);
  });

  it('name only metrics a running worker or API exposes', () => {
    const exposed = new Set([...seriesIn(scraped.worker), ...seriesIn(scraped.api)]);
    const missing = queries.flatMap(({ where, expr }) =>
      metricsOf(expr)
        .filter((name) => !exposed.has(name))
        .map((name) => `${where}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('are read apart from strings, label matchers and ranges (the check can fail)', () => {
    expect(
      metricsOf(
        'histogram_quantile(0.9, sum by (le) (rate(evalflow_made_up_seconds_bucket{route="/evalflow_not_this"}[5m])))',
      ),
    ).toEqual(['evalflow_made_up_seconds_bucket']);
    const exposed = seriesIn(scraped.worker);
    expect(exposed.has('evalflow_made_up_seconds_bucket')).toBe(false);
  });
});

describe('the endpoints', () => {
  it("of the worker carry the engine's figures and Temporal's worker metrics", () => {
    const worker = scraped.worker;
    expect(worker).toMatch(
      /^evalflow_evaluations_total\{evaluator="turn_outcome",version="1",state="recorded"\} 1$/m,
    );
    expect(worker).toMatch(/^evalflow_relay_workspaces 1$/m);
    expect(worker).toMatch(/^temporal_worker_task_slots_available\{/m);
    expect(worker).not.toMatch(/^evalflow_http_requests_total/m);
  });

  it("of the API carry its requests by route pattern, never a URL, its budgets, and the API's port has none", async () => {
    const api = scraped.api;
    expect(api).toMatch(
      /^evalflow_http_requests_total\{method="POST",route="\/v1\/threads\/:threadId\/runs",status="201"\} 1$/m,
    );
    expect(api).toMatch(
      /^evalflow_http_requests_total\{method="GET",route="\/v1\/threads\/:threadId\/conversation",status="404"\} 1$/m,
    );
    expect(api).toMatch(
      /^evalflow_http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m,
    );
    expect(api).not.toMatch(/nobody|no\/such/);
    expect(api).toMatch(/^evalflow_budget_limit_usd\{budget="turns"\} 0.5$/m);
    // The built-in evaluators report no usage: nothing spent, nothing held.
    expect(api).toMatch(/^evalflow_budget_spent_usd\{budget="turns"\} 0$/m);
    expect(api).toMatch(/^evalflow_budget_used_ratio\{budget="turns"\} 0$/m);
    expect(api).not.toMatch(/watched/);
    expect(api).not.toMatch(/^temporal_/m);
    // The API's own port knows no /metrics: without a key it is refused like any unknown path.
    const onApiPort = await fetch(`http://127.0.0.1:${ports.api}/metrics`);
    expect(onApiPort.status).toBe(401);
    expect(await onApiPort.text()).not.toContain('evalflow_');
  });
});

import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluateRunState } from '../../src/workflows/evaluate-run-messages.js';
import { cliInProcess } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import {
  embeddedDefaults,
  eventually,
  finished,
  repoRoot,
  runCli,
  temporalBinaries,
  waitForLine,
} from '../support/processes.js';

// The CLI's Temporal commands against a real engine (`evalflow start`, its dev server, worker and
// API): re-evaluation started, paused, resumed, cancelled and watched, with the progress as plain
// lines off a terminal and as a redrawn bar on one (a pseudo-terminal from util-linux's
// `script`); a rule set from the CLI that the next run follows; and doctor on a healthy engine.

const home = mkdtempSync(join(tmpdir(), 'evalflow-cli-temporal-'));
const config = join(repoRoot, 'test/cli/fixtures/artifacts.config.ts');
let engine: ChildProcess;
let env: NodeJS.ProcessEnv;
let api = '';
let systemKey = '';

const cli = async (...args: string[]) => cliInProcess(args, { cwd: home, env });
const json = async (...args: string[]) => {
  const result = await cli(...args);
  expect(result.err, `evalflow ${args.join(' ')}`).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.out);
};
/**
 * What a run's evaluation workflow returned once it completed: every evaluation the run gets is
 * in it (its id holds the store's id, which the test does not know, so it is found by its end).
 */
async function runEvaluated(workspaceId: string, runId: string): Promise<EvaluateRunState> {
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS ?? '' });
  try {
    const client = new Client({ connection });
    const ids = async () => {
      const found: string[] = [];
      for await (const run of client.workflow.list({ query: "WorkflowType = 'evaluateRun'" })) {
        if (run.workflowId.endsWith(`:${workspaceId}:${runId}`)) found.push(run.workflowId);
      }
      return found;
    };
    const [id] = await eventually(ids, (found) => found.length > 0, 60_000);
    if (id === undefined) throw new Error(`no evaluateRun workflow for run ${runId}`);
    return await client.workflow.getHandle<() => Promise<EvaluateRunState>>(id).result();
  } finally {
    await connection.close();
  }
}
async function call(method: string, path: string, body?: object) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${systemKey}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.json();
}

beforeAll(async () => {
  const [port, uiPort, apiPort, metricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const base = {
    ...embeddedDefaults(),
    ...temporalBinaries(),
    EVALFLOW_TASK_QUEUE: 'cli-commands',
  };
  engine = runCli(
    [
      'start',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--api-port',
      String(apiPort),
      '--metrics-port',
      String(metricsPort),
      '--config',
      config,
    ],
    { cwd: home, env: base },
  );
  engine.stderr?.pipe(process.stderr);
  await waitForLine(engine, /worker polling/);
  env = { ...base, TEMPORAL_ADDRESS: `127.0.0.1:${port}` };
  api = `http://127.0.0.1:${apiPort}`;
  systemKey = (
    await json('keys', 'create', '--workspace', 'acme', '--principal', 'system', '--json')
  ).key;
  // 40 reports, the even ones without a title.
  for (let i = 1; i <= 40; i += 1) {
    await call('PUT', `/v1/artifacts/report-${i}`, {
      kind: 'report',
      data: i % 2 ? { title: `Report ${i}` } : {},
    });
  }
}, 180_000);

afterAll(async () => {
  if (engine && engine.exitCode === null) {
    engine.kill('SIGINT');
    await once(engine, 'exit');
  }
  rmSync(home, { recursive: true, force: true });
});

const selection = ['--workspace', 'acme', '--evaluator', 'artifact_schema@1', '--kind', 'report'];

describe('evalflow reevaluate', () => {
  it('starts a batch, pauses, resumes and cancels it, each answering with the progress as JSON', async () => {
    const { batchId } = await json(
      'reevaluate',
      'start',
      ...selection,
      '--concurrency',
      '1',
      '--json',
      '--config',
      config,
    );
    expect(batchId).toMatch(/^[0-9a-f-]{36}$/);
    const paused = await json(
      'reevaluate',
      'pause',
      batchId,
      '--workspace',
      'acme',
      '--json',
      '--config',
      config,
    );
    expect(paused).toMatchObject({
      batchId,
      progress: { total: 40, paused: true, cancelled: false },
    });
    const held = await json(
      'reevaluate',
      'status',
      batchId,
      '--workspace',
      'acme',
      '--json',
      '--config',
      config,
    );
    // Paused: at most the one evaluation in flight settles.
    expect(held.progress.done - paused.progress.done).toBeLessThanOrEqual(1);
    expect(held.progress.done).toBeLessThan(40);
    const resumed = await json(
      'reevaluate',
      'resume',
      batchId,
      '--workspace',
      'acme',
      '--json',
      '--config',
      config,
    );
    expect(resumed.progress.paused).toBe(false);
    const cancelled = await json(
      'reevaluate',
      'cancel',
      batchId,
      '--workspace',
      'acme',
      '--json',
      '--config',
      config,
    );
    expect(cancelled.progress.cancelled).toBe(true);
    const ended = await json(
      'reevaluate',
      'status',
      batchId,
      '--workspace',
      'acme',
      '--watch',
      '--json',
      '--config',
      config,
    );
    expect(ended.progress).toMatchObject({ cancelled: true, inFlight: 0 });
    expect(ended.progress.done).toBeLessThan(40);

    const late = await cli(
      'reevaluate',
      'pause',
      batchId,
      '--workspace',
      'acme',
      '--config',
      config,
    );
    expect([late.code, late.err]).toEqual([1, `evalflow: batch ${batchId} has finished\n`]);
    const missing = await cli(
      'reevaluate',
      'status',
      'no-such-batch',
      '--workspace',
      'acme',
      '--config',
      config,
    );
    expect([missing.code, missing.err]).toEqual([
      1,
      'evalflow: no batch no-such-batch in workspace acme\n',
    ]);
    const undeployed = await cli(
      'reevaluate',
      'start',
      '--workspace',
      'acme',
      '--evaluator',
      'tone@9',
      '--all',
      '--config',
      config,
    );
    expect([undeployed.code, undeployed.err]).toEqual([
      1,
      'evalflow: evaluator tone@9 is not deployed\n',
    ]);
  }, 180_000);

  it('watches a batch to the end as plain lines when stdout is not a terminal', async () => {
    const { code, out } = await cli(
      'reevaluate',
      'start',
      ...selection,
      '--watch',
      '--config',
      config,
    );
    expect(code).toBe(0);
    for (const control of ['\r', '\x1b']) expect(out).not.toContain(control);
    const lines = out.trim().split('\n');
    const batchId = lines[0]?.replace(/^batch /, '') ?? '';
    expect(batchId).toMatch(/^[0-9a-f-]{36}$/);
    const progress = lines.slice(1, -1);
    expect(progress.length).toBeGreaterThan(0);
    for (const line of progress) {
      expect(line).toMatch(
        new RegExp(
          `^${batchId}: \\d+/(0|40) done, \\d+ in flight, \\d+ failed, (–|\\d+\\.\\d)/s, `,
        ),
      );
    }
    expect(progress.at(-1)).toMatch(
      new RegExp(`^${batchId}: 40/40 done, 0 in flight, 0 failed, .*, complete$`),
    );
    // Half the reports have no title: recorded as invalid, not failed.
    expect(lines.at(-1)).toBe('recorded 40, sampled out 0, failed 0, skipped 0');
  }, 180_000);

  it('draws a bar redrawn in place on a terminal', async () => {
    const node = [
      process.execPath,
      '--conditions=evalflow-source',
      '--import',
      new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href,
    ];
    const command = [
      ...node,
      join(repoRoot, 'src/cli/main.ts'),
      'reevaluate',
      'start',
      ...selection,
      '--watch',
      '--config',
      config,
    ]
      .map((arg) => `'${arg}'`)
      .join(' ');
    // `script` runs the command on a pseudo-terminal, so its stdout is a TTY.
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: home,
      env: { ...env, COLUMNS: '200' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { code, out } = await finished(child);
    expect(code).toBe(0);
    expect(out).toContain('\r\x1b[2K');
    expect(out).toMatch(/█{24} 40\/40 done · 0 in flight · 0 failed · [\d.]+\/s · complete/);
    expect(out).toContain('recorded 40, sampled out 0, failed 0, skipped 0');
  }, 180_000);
});

describe('evalflow rules set', () => {
  it('records a rule the next run follows', async () => {
    const set = await json(
      'rules',
      'set',
      'artifact_schema@1',
      '--disable',
      '--workspace',
      'acme',
      '--config',
      config,
      '--json',
    );
    expect(set[0].rule).toMatchObject({
      evaluator: 'artifact_schema@1',
      enabled: false,
      setBy: 'system:cli',
    });
    const agentKey = (
      await json('keys', 'create', '--workspace', 'acme', '--principal', 'agent', '--json')
    ).key;
    const asAgent = async (method: string, path: string, body: object) => {
      const response = await fetch(`${api}${path}`, {
        method,
        headers: { authorization: `Bearer ${agentKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status, `${method} ${path}`).toBeLessThan(300);
    };
    await asAgent('POST', '/v1/threads', { threadId: 't1' });
    await asAgent('POST', '/v1/threads/t1/runs', { runId: 'after-switch' });
    await asAgent('PUT', '/v1/artifacts/summary-1', {
      kind: 'report',
      data: { title: 'Summary' },
      runId: 'after-switch',
    });
    await asAgent('POST', '/v1/runs/after-switch/end', { status: 'completed' });
    type Entry = { evaluator: string; target: unknown };
    const read = (): Promise<Entry[]> => json('ledger', '--run', 'after-switch', '--json');
    // Once the run's workflow has completed, no evaluation of the run is left to come.
    const evaluated = await runEvaluated('acme', 'after-switch');
    expect(
      Object.values(evaluated.evaluations).map((e) => [
        `${e.evaluator.name}@${e.evaluator.version}`,
        e.target,
        e.state,
      ]),
    ).toEqual([
      ['json_validity@1', { kind: 'artifact', artifact_id: 'summary-1', version: 1 }, 'recorded'],
    ]);
    expect((await read()).map((e) => [e.evaluator, e.target])).toEqual([
      ['json_validity@1', { kind: 'artifact', artifactId: 'summary-1', version: 1 }],
    ]);
  }, 180_000);
});

describe('evalflow doctor', () => {
  it('passes every check on a running engine, and names a missing namespace with its fix', async () => {
    const healthy = await cli('doctor', '--json', '--config', config);
    const report = JSON.parse(healthy.out);
    expect(report.checks.filter((c: { ok: boolean }) => !c.ok)).toEqual([]);
    expect(healthy.code).toBe(0);
    expect(report.checks.find((c: { name: string }) => c.name === 'dev server').detail).toMatch(
      /belongs to evalflow start pid \d+, still running/,
    );

    const missing = await cliInProcess(['doctor', '--config', config], {
      cwd: home,
      env: { ...env, TEMPORAL_NAMESPACE: 'nowhere' },
    });
    expect(missing.code).toBe(1);
    expect(missing.out).toContain(
      `FAIL temporal     Temporal at ${env.TEMPORAL_ADDRESS} answers, but has no namespace nowhere; fix: create it (temporal operator namespace create --namespace nowhere), or set TEMPORAL_NAMESPACE`,
    );
  }, 120_000);
});

import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startDevServer } from '../../src/cli/supervision/dev-server.js';
import { cliInProcess } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import {
  embeddedDefaults,
  eventually,
  finished,
  runCli,
  temporalBinaries,
  waitForLine,
} from '../support/processes.js';

// The API as a user runs it: `evalflow start` (dev server, worker, API), keys made with
// `evalflow keys`, a second `evalflow api` process on the same store, all over real HTTP.

const home = mkdtempSync(join(tmpdir(), 'evalflow-api-process-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

it('serves the API beside the worker, with keys from the CLI, and alone in a second process', async () => {
  const [port, uiPort, apiPort, secondApiPort, metricsPort] = await Promise.all([
    freePort(),
    freePort(),
    freePort(),
    freePort(),
    freePort(),
  ]);
  const env = { ...embeddedDefaults(), ...temporalBinaries(), EVALFLOW_TASK_QUEUE: 'api-process' };
  const engine = runCli(
    [
      'start',
      ...['--port', String(port), '--ui-port', String(uiPort), '--api-port', String(apiPort)],
      ...['--metrics-port', String(metricsPort)],
    ],
    { cwd: home, env },
  );
  engine.stderr?.pipe(process.stderr);
  // `start` prints the API's address, then (last) that the worker polls: wait for the last line.
  await waitForLine(engine, /worker polling/);
  expect((await fetch(`http://127.0.0.1:${apiPort}/healthz`)).status).toBe(200);
  // The reviewers' page, as `npm install` built it (prepare), served beside the API.
  const page = await fetch(`http://127.0.0.1:${apiPort}/ui/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(await page.text()).toMatch(
    /<script type="module" crossorigin src="\/ui\/assets\/[^"]+\.js">/,
  );
  const cli = async (...args: string[]) => cliInProcess(args, { cwd: home, env });

  const made = await cli('keys', 'create', '--workspace', 'acme', '--principal', 'agent', '--json');
  expect(made.code).toBe(0);
  const agent = JSON.parse(made.out) as { id: string; key: string };
  expect(agent.key).toMatch(/^efk_/);
  const system = JSON.parse(
    (await cli('keys', 'create', '--workspace', 'acme', '--principal', 'system', '--json')).out,
  );
  const bad = await cli('keys', 'create', '--workspace', 'acme', '--principal', 'boss');
  expect(bad.code).toBe(1);
  expect(bad.err.trim().split('\n')).toEqual([
    'evalflow: --principal is one of system, admin, agent, user:<id>, reviewer:<id>, evaluator:<name>@<version>, not boss',
  ]);
  const listed = JSON.parse((await cli('keys', 'list', '--workspace', 'acme', '--json')).out) as {
    id: string;
  }[];
  expect(listed.map((k) => k.id).sort()).toEqual([agent.id, system.id].sort());
  expect(JSON.stringify(listed)).not.toContain(agent.key.slice('efk_'.length + 33));

  const api = `http://127.0.0.1:${apiPort}`;
  const call = async (method: string, path: string, key: string, body?: object) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON the API answered
    return { status: response.status, body: (await response.json()) as any };
  };
  expect((await call('POST', '/v1/threads', agent.key, { threadId: 't' })).status).toBe(201);
  expect(
    (await call('POST', '/v1/threads/t/runs', agent.key, { runId: 'r', traceId: 'ef'.repeat(16) }))
      .status,
  ).toBe(201);
  await call('POST', '/v1/threads/t/messages', agent.key, {
    role: 'ROLE_ASSISTANT',
    content: 'Hello there',
    runId: 'r',
  });
  expect((await call('POST', '/v1/runs/r/end', agent.key, { status: 'completed' })).status).toBe(
    200,
  );
  const read = await eventually(
    () => call('GET', '/v1/runs/r', system.key),
    (reply) => reply.body.evaluations?.length >= 3,
  );
  // The built-in app judges the answer (its length, a refusal) and the run (its outcome).
  expect(read.body.evaluations.map((e: { state: string }) => e.state)).toEqual([
    'recorded',
    'recorded',
    'recorded',
  ]);

  // A second API process, alone, on the same store and Temporal.
  const second = runCli(['api', '--api-port', String(secondApiPort)], {
    cwd: home,
    env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
  });
  expect(await waitForLine(second, /reviewers' page at/)).toContain(
    `reviewers' page at http://127.0.0.1:${secondApiPort}/ui/`,
  );
  const ready = await fetch(`http://127.0.0.1:${secondApiPort}/readyz`);
  expect(await ready.json()).toEqual({ status: 'ok', checks: { store: 'ok', temporal: 'ok' } });
  const conversation = await fetch(`http://127.0.0.1:${secondApiPort}/v1/threads/t/conversation`, {
    headers: { authorization: `Bearer ${system.key}` },
  });
  expect(((await conversation.json()) as { messages: unknown[] }).messages).toHaveLength(1);

  // Revoked with the CLI: refused at once by both processes.
  expect((await cli('keys', 'revoke', agent.id)).code).toBe(0);
  expect((await call('POST', '/v1/threads', agent.key, { threadId: 'u' })).status).toBe(401);
  expect((await cli('keys', 'revoke', agent.id)).err).toContain(`no active key ${agent.id}`);

  second.kill('SIGINT');
  expect((await once(second, 'exit'))[0]).toBe(0);
  engine.kill('SIGINT');
  expect((await once(engine, 'exit'))[0]).toBe(0);
});

it("waits for a Temporal that comes up after the API, past the SDK's one 10-second attempt", async () => {
  const [port, uiPort, apiPort] = await Promise.all([freePort(), freePort(), freePort()]);
  const alone = mkdtempSync(join(tmpdir(), 'evalflow-api-first-'));
  const api = runCli(['api', '--api-port', String(apiPort)], {
    cwd: alone,
    env: { ...embeddedDefaults(), TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
  });
  const output = finished(api);
  const served = waitForLine(api, /API at/, 120_000);
  // Printed after the first attempt failed, that is after the SDK's whole 10-second attempt.
  await waitForLine(api, /waiting for Temporal/);
  // Still running: had it given up, `served` would fail with its exit.
  expect(api.exitCode).toBeNull();
  const server = await startDevServer({
    cliPath: temporalBinaries().TEMPORAL_CLI_PATH ?? '',
    namespace: 'default',
    port,
    uiPort,
    home: alone,
    log: () => {},
  });
  try {
    await served;
    expect((await fetch(`http://127.0.0.1:${apiPort}/readyz`)).status).toBe(200);
    api.kill('SIGINT');
    const { code, out } = await output;
    expect(code).toBe(0);
    expect(out).toContain(`evalflow: waiting for Temporal at 127.0.0.1:${port} (up to 60s)`);
  } finally {
    api.kill('SIGKILL');
    await server.stop();
    rmSync(alone, { recursive: true, force: true });
  }
});

import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { type DevServer, startDevServer } from '../../src/cli/supervision/dev-server.js';
import { cliInProcess } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import {
  embeddedDefaults,
  eventually,
  runCli,
  temporalBinaries,
  waitForLine,
} from '../support/processes.js';
import { type Certificates, makeCertificates, type TlsProxy, tlsProxy } from '../support/tls.js';

// evalflow's processes on a secured Temporal, configured the standard way: a temporal.toml
// profile with mutual TLS (a client certificate, the CA, a server name) and a namespace of its
// own, or plain TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE. The dev server cannot serve TLS, so a
// TLS terminator that demands the test CA's client certificate stands in front of it.

const NAMESPACE = 'secured';
const dir = mkdtempSync(join(tmpdir(), 'evalflow-secured-temporal-'));
let server: DevServer;
let proxy: TlsProxy;
let certificates: Certificates;
let temporal: Connection;
/** The temporal.toml with the profile `secured`: mutual TLS to the proxy. */
const profiles = join(dir, 'temporal.toml');

beforeAll(async () => {
  const cli = inject('temporalCli');
  certificates = makeCertificates(dir, 'temporal.evalflow.test');
  server = await startDevServer({
    cliPath: 'path' in cli ? cli.path : '',
    namespace: NAMESPACE,
    port: await freePort(),
    uiPort: await freePort(),
    home: join(dir, 'dev-server'),
  });
  proxy = await tlsProxy(certificates, Number(server.address.split(':')[1]));
  writeFileSync(
    profiles,
    `[profile.secured]
address = "127.0.0.1:${proxy.port}"
namespace = "${NAMESPACE}"
[profile.secured.tls]
client_cert_path = "${certificates.client.certPath}"
client_key_path = "${certificates.client.keyPath}"
server_ca_cert_path = "${certificates.caPath}"
server_name = "${certificates.serverName}"
`,
  );
  // The test's own look at the server: plain, on its real port.
  temporal = await Connection.connect({ address: server.address, connectTimeout: '60s' });
});
afterAll(async () => {
  await temporal?.close();
  await proxy?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder to run evalflow in: its SQLite store and scores land there. */
const newHome = (name: string) => {
  const home = join(dir, name);
  mkdirSync(home);
  return home;
};

/** The workers polling `taskQueue` in the profile's namespace, as the server sees them. */
const pollers = async (taskQueue: string) =>
  (
    await temporal.workflowService.describeTaskQueue({
      namespace: NAMESPACE,
      taskQueue: { name: taskQueue },
    })
  ).pollers ?? [];

it('evalflow start reaches a TLS-only Temporal through a temporal.toml profile and evaluates a run', async () => {
  const home = newHome('start');
  const env = {
    ...embeddedDefaults(),
    ...temporalBinaries(),
    TEMPORAL_CONFIG_FILE: profiles,
    TEMPORAL_PROFILE: 'secured',
    EVALFLOW_TASK_QUEUE: 'secured-start',
  };
  const cli = async (...args: string[]) => cliInProcess(args, { cwd: home, env });
  const keyFor = async (principal: string) =>
    JSON.parse(
      (await cli('keys', 'create', '--workspace', 'acme', '--principal', principal, '--json')).out,
    ) as { key: string };
  const [agent, system] = [await keyFor('agent'), await keyFor('system')];

  const [apiPort, metricsPort] = [await freePort(), await freePort()];
  const engine = runCli(
    ['start', '--api-port', String(apiPort), '--metrics-port', String(metricsPort)],
    { cwd: home, env },
  );
  engine.stderr?.pipe(process.stderr);
  const ready = await waitForLine(engine, /worker polling/);
  // The profile names a cluster: no dev server of its own, and no UI to point at.
  expect(ready).toBe(
    `evalflow: worker polling task queue secured-start on Temporal at 127.0.0.1:${proxy.port}`,
  );
  expect(existsSync(join(home, '.evalflow', 'temporal.pid'))).toBe(false);
  expect(
    (
      await eventually(
        () => pollers('secured-start'),
        (p) => p.length > 0,
      )
    ).length,
  ).toBe(1);

  const api = `http://127.0.0.1:${apiPort}`;
  const readiness = await fetch(`${api}/readyz`);
  expect(await readiness.json()).toEqual({ status: 'ok', checks: { store: 'ok', temporal: 'ok' } });
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
    (await call('POST', '/v1/threads/t/runs', agent.key, { runId: 'r', traceId: 'ab'.repeat(16) }))
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

  // The evaluations ran in the profile's namespace, and every connection to it (the worker's, its
  // relays' client, the API's) came through TLS with the client certificate.
  const workflows = new Client({ connection: temporal, namespace: NAMESPACE }).workflow;
  const counted = await eventually(
    () => workflows.count(`TaskQueue = 'secured-start'`),
    ({ count }) => count > 0,
  );
  expect(counted.count).toBeGreaterThan(0);
  expect(proxy.clients.length).toBeGreaterThanOrEqual(3);
  expect(new Set(proxy.clients)).toEqual(new Set([certificates.client.commonName]));

  engine.kill('SIGINT');
  expect((await once(engine, 'exit'))[0]).toBe(0);
});

it('evalflow worker polls the namespace TEMPORAL_NAMESPACE names, on TEMPORAL_ADDRESS', async () => {
  const worker = runCli(['worker'], {
    cwd: newHome('worker'),
    env: {
      ...embeddedDefaults(),
      ...temporalBinaries(),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: NAMESPACE,
      EVALFLOW_TASK_QUEUE: 'secured-worker',
    },
  });
  worker.stderr?.pipe(process.stderr);
  await waitForLine(worker, /worker polling task queue secured-worker/);
  expect(
    (
      await eventually(
        () => pollers('secured-worker'),
        (p) => p.length > 0,
      )
    ).length,
  ).toBe(1);
  worker.kill('SIGINT');
  expect((await once(worker, 'exit'))[0]).toBe(0);
});

it('evalflow worker and api stop at a bad Temporal setting with one line, before connecting', async () => {
  const run = (command: string, settings: Record<string, string>) =>
    cliInProcess([command], {
      cwd: newHome(`bad-${command}`),
      env: { ...embeddedDefaults(), ...temporalBinaries(), ...settings },
    });
  const absent = join(dir, 'absent.pem');
  const noCert = await run('worker', {
    TEMPORAL_ADDRESS: `127.0.0.1:${proxy.port}`,
    TEMPORAL_TLS_CLIENT_CERT_PATH: absent,
    TEMPORAL_TLS_CLIENT_KEY_PATH: certificates.client.keyPath,
  });
  expect(noCert.code).toBe(1);
  expect(noCert.err.trim().split('\n')).toEqual([
    `evalflow: the Temporal TLS client certificate ${absent} does not exist`,
  ]);
  const noProfile = await run('api', { TEMPORAL_CONFIG_FILE: profiles, TEMPORAL_PROFILE: 'prod' });
  expect(noProfile.code).toBe(1);
  expect(noProfile.err.trim().split('\n')).toEqual([
    `evalflow: TEMPORAL_PROFILE prod is not a profile in ${profiles} (its profiles: secured)`,
  ]);
});

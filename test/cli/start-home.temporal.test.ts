import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { embeddedDefaults, runCli, temporalBinaries, waitForLine } from '../support/processes.js';

const checkout = mkdtempSync(join(tmpdir(), 'evalflow-start-home-'));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));

it('evalflow start --home keeps its dev server, engine record and store in that folder, not ./.evalflow', async () => {
  const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
  const [port, uiPort, apiPort, metricsPort] = ports.map(String) as [
    string,
    string,
    string,
    string,
  ];
  const child = runCli(
    [
      'start',
      '--home',
      'engine-a',
      '--port',
      port,
      '--ui-port',
      uiPort,
      '--api-port',
      apiPort,
      '--metrics-port',
      metricsPort,
    ],
    {
      cwd: checkout,
      env: { ...embeddedDefaults(), ...temporalBinaries(), EVALFLOW_TASK_QUEUE: 'start-home-test' },
    },
  );
  child.stderr?.pipe(process.stderr);
  await waitForLine(child, /worker polling/);
  const home = join(checkout, 'engine-a');
  expect(JSON.parse(readFileSync(join(home, 'temporal.pid'), 'utf8'))).toMatchObject({
    port: Number(port),
  });
  expect(JSON.parse(readFileSync(join(home, 'engine.json'), 'utf8'))).toMatchObject({
    pid: child.pid,
    apiUrl: `http://127.0.0.1:${apiPort}`,
  });
  expect(existsSync(join(home, 'evalflow.db'))).toBe(true);
  expect(existsSync(join(checkout, '.evalflow'))).toBe(false);
  child.kill('SIGINT');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  expect(existsSync(join(home, 'engine.json'))).toBe(false);
}, 120_000);

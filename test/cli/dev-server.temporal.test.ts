import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, inject, it } from 'vitest';
import { DevServerInUseError, DevServerPortInUseError } from '../../src/cli/errors.js';
import { type DevServer, pidFileOf, startDevServer } from '../../src/cli/supervision/dev-server.js';
import { isAlive } from '../../src/cli/supervision/processes.js';
import { connectWorkerWhenReady } from '../../src/worker/connect.js';
import { freePort } from '../support/free-port.js';

const cli = inject('temporalCli');
const cliPath = 'path' in cli ? cli.path : '';
const owner = fileURLToPath(new URL('./fixtures/dev-server-owner.ts', import.meta.url));

const homes: string[] = [];
const newHome = () => {
  const home = mkdtempSync(join(tmpdir(), 'evalflow-dev-server-'));
  homes.push(home);
  return home;
};
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

// Whatever a test leaves running is ended here, so a failure never leaks a server.
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const killIfAlive = (pid: number) => () => {
  if (isAlive(pid)) process.kill(-pid, 'SIGKILL');
};

/** The first line a child prints, as JSON; the pipe stays open for what its server prints. */
function firstLine(child: ChildProcess): Promise<{ pid: number }> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const newline = output.indexOf('\n');
      if (newline >= 0) resolve(JSON.parse(output.slice(0, newline)));
    });
    child.once('exit', (code) => reject(new Error(`the owner exited with ${code}: ${output}`)));
  });
}

it('stops the leftover dev server of a killed start and starts a new one, refusing while its start still runs', async () => {
  const home = newHome();
  const [port, uiPort] = [await freePort(), await freePort()];
  const first = spawn(
    process.execPath,
    ['--import', 'tsx', owner, cliPath, home, String(port), String(uiPort)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  cleanups.push(() => first.kill('SIGKILL'));
  const { pid: leftover } = await firstLine(first);
  cleanups.push(killIfAlive(leftover));
  await (await connectWorkerWhenReady(`127.0.0.1:${port}`)).close();

  // Its start still runs: stopping its server would break it.
  const options = { cliPath, namespace: 'default', home, port, uiPort };
  const refused = await startDevServer(options).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(DevServerInUseError);
  expect(refused).toMatchObject({ serverPid: leftover, ownerPid: first.pid });
  expect(isAlive(leftover)).toBe(true);

  // `npm start` killed: its detached server lives on.
  first.kill('SIGKILL');
  await once(first, 'exit');
  expect(isAlive(leftover)).toBe(true);

  const lines: string[] = [];
  const server: DevServer = await startDevServer({ ...options, log: (line) => lines.push(line) });
  cleanups.push(killIfAlive(server.pid));
  expect(lines).toEqual([
    `evalflow: stopped a leftover Temporal dev server (pid ${leftover}, port ${port}) of an earlier evalflow start that did not shut down`,
  ]);
  expect(isAlive(leftover)).toBe(false);
  expect(server.pid).not.toBe(leftover);
  expect(JSON.parse(readFileSync(pidFileOf(home), 'utf8'))).toMatchObject({
    pid: server.pid,
    port,
    uiPort,
    stateFile: join(home, 'temporal.db'),
    owner: { pid: process.pid },
  });
  const connection = await connectWorkerWhenReady(server.address, { server: server.child });
  await connection.close();

  await server.stop();
  expect(isAlive(server.pid)).toBe(false);
  expect(existsSync(pidFileOf(home))).toBe(false);
});

it('refuses a port another program holds, naming it and the option to change it', async () => {
  const home = newHome();
  const [port, uiPort] = [await freePort(), await freePort()];
  for (const [held, option] of [
    [port, '--port'],
    [uiPort, '--ui-port'],
  ] as const) {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(held, '127.0.0.1', resolve));
    try {
      const error = await startDevServer({
        cliPath,
        namespace: 'default',
        home,
        port,
        uiPort,
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DevServerPortInUseError);
      expect(error).toMatchObject({ port: held, option });
      expect((error as Error).message).toContain(`port ${held} is in use by another program`);
      expect((error as Error).message).toContain(`${option} <port>`);
      expect(existsSync(pidFileOf(home))).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }
});

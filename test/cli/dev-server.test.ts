import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { DevServerInUseError } from '../../src/cli/errors.js';
import {
  type DevServerRecord,
  pidFileOf,
  startDevServer,
  stateFileOf,
  stopLeftoverDevServer,
} from '../../src/cli/supervision/dev-server.js';
import {
  commandLineOf,
  isAlive,
  portIsFree,
  portsReleased,
} from '../../src/cli/supervision/processes.js';
import { freePort } from '../support/free-port.js';

// The leftover rules on stand-in processes (node scripts whose command line looks like a dev
// server's); the real dev server's turn is in dev-server.temporal.test.ts.

const home = mkdtempSync(join(tmpdir(), 'evalflow-leftover-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(pidFileOf(home), { force: true });
});

/** A node process running `script`, printing `ready` once its handlers are in place. */
async function running(script: string, ...args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-e', `${script}; console.log('ready')`, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  children.push(child);
  await once(child.stdout ?? child, 'data');
  return child;
}
const forever = 'setInterval(() => {}, 1000)';
const fakeServer = (script = forever) =>
  running(script, 'server', 'start-dev', '--db-filename', stateFileOf(home));

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid ?? 0;
}

async function record(
  pid: number,
  owner: { pid: number; command: string | null },
  ports?: { port: number; uiPort: number },
): Promise<void> {
  const value: DevServerRecord = {
    pid,
    ...(ports ?? { port: await freePort(), uiPort: await freePort() }),
    stateFile: stateFileOf(home),
    owner,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(pidFileOf(home), JSON.stringify(value));
}

it('ends a leftover that ignores SIGTERM with SIGKILL after the grace period, and says so', async () => {
  const server = await fakeServer(`process.on('SIGTERM', () => {}); ${forever}`);
  const pid = server.pid ?? 0;
  const port = await freePort();
  await record(
    pid,
    { pid: await deadPid(), command: 'node bin/evalflow.js start' },
    { port, uiPort: await freePort() },
  );
  const lines: string[] = [];
  const started = Date.now();
  await stopLeftoverDevServer({ home, graceMs: 300, log: (line) => lines.push(line) });
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  expect(isAlive(pid)).toBe(false);
  expect(lines).toEqual([
    `evalflow: stopped a leftover Temporal dev server (pid ${pid}, port ${port}) of an earlier evalflow start that did not shut down`,
  ]);
  expect(existsSync(pidFileOf(home))).toBe(false);
});

it("waits for a stopped leftover's ports to close, and says false when one is still held at the deadline", async () => {
  // Linux drops an exiting process's command line before it closes its sockets: the start waits
  // on the port itself. Here this process holds it, and closes it while the wait runs.
  const holder: Server = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port } = holder.address() as AddressInfo;
  expect(await portsReleased([port], '127.0.0.1', 0)).toBe(false);
  let settled = false;
  const released = portsReleased([port], '127.0.0.1', 10_000).finally(() => {
    settled = true;
  });
  expect(await portIsFree(port, '127.0.0.1')).toBe(false);
  expect(settled).toBe(false);
  await new Promise((resolve) => holder.close(resolve));
  expect(await released).toBe(true);
  expect(await portIsFree(port, '127.0.0.1')).toBe(true);
});
it('leaves alone a server whose start still runs, with a DevServerInUseError', async () => {
  const server = await fakeServer();
  const owner = await running(forever);
  const ownerPid = owner.pid ?? 0;
  await record(server.pid ?? 0, { pid: ownerPid, command: commandLineOf(ownerPid) });
  const error = await stopLeftoverDevServer({ home, graceMs: 300, log: () => {} }).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DevServerInUseError);
  expect(error).toMatchObject({ serverPid: server.pid, ownerPid, stateFile: stateFileOf(home) });
  expect(isAlive(server.pid ?? 0)).toBe(true);
  expect(existsSync(pidFileOf(home))).toBe(true);
});

it('treats an owner pid now used by another program as gone', async () => {
  const server = await fakeServer();
  const other = await running(forever);
  await record(server.pid ?? 0, { pid: other.pid ?? 0, command: 'node bin/evalflow.js start' });
  await stopLeftoverDevServer({ home, graceMs: 2_000, log: () => {} });
  expect(isAlive(server.pid ?? 0)).toBe(false);
  expect(isAlive(other.pid ?? 0)).toBe(true);
});

it('never stops a process that is no dev server of this state file, and drops the stale record', async () => {
  const bystander = await running(forever);
  const lines: string[] = [];
  for (const pid of [bystander.pid ?? 0, await deadPid()]) {
    await record(pid, { pid: await deadPid(), command: null });
    await stopLeftoverDevServer({ home, graceMs: 300, log: (line) => lines.push(line) });
    expect(existsSync(pidFileOf(home))).toBe(false);
  }
  expect(isAlive(bystander.pid ?? 0)).toBe(true);
  expect(lines).toEqual([]);
});

it('ignores a pid file that is not a record', async () => {
  writeFileSync(pidFileOf(home), '{"pid": "12');
  await expect(stopLeftoverDevServer({ home, graceMs: 300, log: () => {} })).resolves.toBe(
    undefined,
  );
});

/** A stand-in `temporal` CLI: an executable node script. */
function standInCli(script: string): string {
  const path = join(home, `temporal-${children.length}-${Date.now()}`);
  writeFileSync(path, `#!${process.execPath}\n${script}\n`, { mode: 0o755 });
  return path;
}
const devServerOn = async (cliPath: string, warn: (line: string) => void) =>
  startDevServer({
    cliPath,
    namespace: 'default',
    port: await freePort(),
    uiPort: await freePort(),
    home,
    warn,
  });

it("writes the server's output to its log file, and says with its last lines when it ends on its own", async () => {
  // 25 numbered lines on stdout, one on stderr, then an exit no one asked for.
  const cliPath = standInCli(
    "for (let i = 0; i < 25; i++) console.log('line ' + i); console.error('bad state'); process.exit(3)",
  );
  let warned: (line: string) => void = () => {};
  const warning = new Promise<string>((resolve) => {
    warned = resolve;
  });
  const server = await devServerOn(cliPath, (line) => warned(line));
  const said = await warning;
  expect(server.logFile).toBe(join(home, 'temporal.log'));
  expect(said).toBe(
    `evalflow: the Temporal dev server ended with code 3; the last lines of ${server.logFile}:\n` +
      [...Array.from({ length: 19 }, (_, i) => `line ${i + 6}`), 'bad state'].join('\n'),
  );
  expect(readFileSync(server.logFile, 'utf8')).toContain('line 0\n');
  await server.stop();
  expect(existsSync(pidFileOf(home))).toBe(false);
});

it('says nothing when the server ends because it was stopped', async () => {
  const cliPath = standInCli(`console.log('serving'); ${forever}`);
  const warnings: string[] = [];
  const server = await devServerOn(cliPath, (line) => warnings.push(line));
  await server.stop();
  expect(server.child.signalCode).toBe('SIGTERM');
  expect(warnings).toEqual([]);
  expect(existsSync(pidFileOf(home))).toBe(false);
});

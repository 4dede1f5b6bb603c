import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { DevServerInUseError } from '../../src/cli/errors.js';
import {
  type DevServerRecord,
  pidFileOf,
  stateFileOf,
  stopLeftoverDevServer,
  withoutShutdownNoise,
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

it("leaves out the server's benign 'task queue closed' at a clean stop, and keeps every other line", async () => {
  // As the Temporal CLI's dev server wrote it when `evalflow start` stopped its worker.
  const noise =
    'time=2026-12-04T14:55:18.960Z level=ERROR msg="service failures" operation=PollWorkflowTaskQueue wf-namespace=default error="task queue closed"';
  const other =
    'time=2026-12-04T14:55:18.961Z level=ERROR msg="service failures" error="context deadline exceeded"';
  // As it wrote it when the demo stopped it, with a read of a run still in flight.
  const shardClosed =
    'time=2026-12-04T17:41:29.756 level=ERROR msg="Persistent fetch operation Failure" shard-id=1 store-operation=get-wf-execution error="shard closed"';
  const filter = withoutShutdownNoise();
  const kept: string[] = [];
  filter.on('data', (chunk: Buffer) => kept.push(chunk.toString()));
  const ended = once(filter, 'end');
  // Lines split across chunks, as a pipe delivers them.
  filter.write(`Temporal Server: localhost:7233\n${noise.slice(0, 40)}`);
  filter.write(`${noise.slice(40)}\n${other}\n${shardClosed}\n`);
  filter.end('last line without a newline');
  await ended;
  expect(kept.join('')).toBe(
    `Temporal Server: localhost:7233\n${other}\nlast line without a newline`,
  );
});

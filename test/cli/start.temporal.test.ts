import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { afterAll, expect, inject, it } from 'vitest';
import {
  evaluateRunWorkflowId,
  runEndedSignal,
  runPausedSignal,
} from '../../src/workflows/evaluate-run-messages.js';
import { freePort } from '../support/free-port.js';

const cli = fileURLToPath(new URL('../../bin/evalflow.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'evalflow-start-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 90_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} in:\n${output}`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`exited with ${code} before ${pattern}:\n${output}`)),
    );
  });
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.destroy() !== undefined));
    socket.once('error', () => resolve(false));
  });
}

it('evalflow start runs a dev server and a worker that evaluates runs, and Ctrl-C stops both', async () => {
  const [port, uiPort] = [await freePort(), await freePort()];
  const pathOf = (binary: ReturnType<typeof inject<'temporalCli'>>) =>
    'path' in binary ? binary.path : '';
  const child = spawn(
    process.execPath,
    [cli, 'start', '--port', String(port), '--ui-port', String(uiPort)],
    {
      cwd: home,
      env: {
        ...process.env,
        TEMPORAL_CLI_PATH: pathOf(inject('temporalCli')),
        TEMPORAL_TEST_SERVER_PATH: pathOf(inject('temporalTestServer')),
        EVALFLOW_TASK_QUEUE: 'start-test',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const ready = await waitForLine(child, /worker polling/);
  expect(ready).toContain(`Temporal UI at http://127.0.0.1:${uiPort}`);

  const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
  try {
    const client = new Client({ connection });
    const handle = await client.workflow.signalWithStart('evaluateRun', {
      workflowId: evaluateRunWorkflowId('ws', 'via-start'),
      taskQueue: 'start-test',
      args: [{ workspaceId: 'ws', runId: 'via-start', threadId: 't' }],
      signal: runPausedSignal,
      signalArgs: [{ seq: 1 }],
    });
    await handle.signal(runEndedSignal, { seq: 2, status: 'completed' });
    expect(await handle.result()).toMatchObject({ status: 'completed', pauses: 1 });
  } finally {
    await connection.close();
  }

  child.kill('SIGINT');
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  expect(await listening(port)).toBe(false);
  expect(await listening(uiPort)).toBe(false);
});

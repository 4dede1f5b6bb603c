import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { RunEvent } from '../../src/workflows/evaluate-run-messages.js';
import { eventTimeMs } from './history-chain.js';

// `evalflow worker` processes from the sources, as a deployment runs several on one store, for
// tests and `npm run bench:scale` (so nothing here needs vitest).

const cliMain = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const compiledMain = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

export interface WorkerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The workspaces it says it relays now (its `relaying workspace` lines, less `stopped`). */
  readonly relaying: Set<string>;
  /** Settles once it prints that it polls its task queue; rejects if it exits first. */
  readonly ready: Promise<void>;
  /** Settles when it exits. */
  readonly exited: Promise<number | null>;
  output(): string;
}

/** `evalflow worker` from the sources, or (`compiled`) from dist/ as an installed package runs it. */
export function startWorkerProcess(options: {
  cwd: string;
  env: NodeJS.ProcessEnv;
  compiled?: boolean;
}): WorkerProcess {
  const { compiled, ...spawnOptions } = options;
  const args = compiled
    ? [compiledMain, 'worker']
    : ['--conditions=evalflow-source', '--import', tsxLoader, cliMain, 'worker'];
  const child = spawn(process.execPath, args, {
    ...spawnOptions,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const relaying = new Set<string>();
  let output = '';
  let partial = '';
  let markReady = () => {};
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    void exited.then((code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
  ready.catch(() => {});
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (/worker polling task queue/.test(line)) markReady();
      const started = /^evalflow: relaying workspace (\S+)$/.exec(line);
      if (started?.[1]) relaying.add(started[1]);
      const stopped = /^evalflow: stopped relaying workspace (\S+) /.exec(line);
      if (stopped?.[1]) relaying.delete(stopped[1]);
    }
  });
  return { child, pid: child.pid ?? -1, relaying, ready, exited, output: () => output };
}

export interface DeliveredSignal {
  seq: number;
  type: RunEvent['type'];
  /** When the server recorded it, in ms since the epoch. */
  at: number;
}

/** Every run event a run's workflow took by signal, in history order. */
export async function runSignals(client: Client, workflowId: string): Promise<DeliveredSignal[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? []).flatMap((event) => {
    const signaled = event.workflowExecutionSignaledEventAttributes;
    if (signaled?.signalName !== 'runEvent') return [];
    const at = eventTimeMs(event);
    // One signal carries a page's events of the run.
    return (signaled.input?.payloads ?? []).map((payload) => {
      const runEvent = defaultPayloadConverter.fromPayload<RunEvent>(payload);
      return { seq: runEvent.seq, type: runEvent.type, at };
    });
  });
}

/** Signals that carried a seq the workflow had been sent already. */
export const repeatsOf = (signals: readonly DeliveredSignal[]) =>
  signals.length - new Set(signals.map((signal) => signal.seq)).size;

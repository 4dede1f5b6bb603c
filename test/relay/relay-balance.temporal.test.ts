import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_CURSOR } from '../../src/relay/index.js';
import { openPostgresStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { evaluateRunWorkflowId } from '../../src/workflows/evaluate-run-messages.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../support/postgres-cluster.js';
import { eventually } from '../support/processes.js';
import { freshDatabase, startRun, workerEnvironment } from '../support/scale-load.js';
import { devServerEnvironment, uniqueTaskQueue } from '../support/temporal.js';
import {
  repeatsOf,
  runSignals,
  startWorkerProcess,
  type WorkerProcess,
} from '../support/worker-processes.js';

// `evalflow worker` processes on one Postgres store share its workspaces: each relays about its
// fair share, a process that joins is handed its share by the others, and one SIGKILLed leaves
// its workspaces to the rest; through it all, every event reaches its run's workflow once.

const WORKSPACES = 30;
let env: TestWorkflowEnvironment;
let cluster: ThrowawayCluster | undefined;
let database: { url: string; drop(): Promise<void> };
let host: Store;
const dir = mkdtempSync(join(tmpdir(), 'evalflow-relay-balance-'));
const workers: WorkerProcess[] = [];
const taskQueue = uniqueTaskQueue('balance');

beforeAll(async () => {
  env = await devServerEnvironment();
  cluster = process.env.DATABASE_URL ? undefined : await startThrowawayCluster();
  database = await freshDatabase(process.env.DATABASE_URL ?? cluster?.url ?? '');
  host = await openPostgresStore(
    { databaseUrl: database.url },
    { feedbackTypes: conformanceFeedbackTypes() },
  );
});
afterAll(async () => {
  for (const worker of workers) worker.child.kill('SIGKILL');
  await Promise.all(workers.map((worker) => worker.exited));
  await host?.close();
  await database?.drop();
  cluster?.stop();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

function startWorker(): WorkerProcess {
  const worker = startWorkerProcess({
    cwd: dir,
    env: workerEnvironment({
      databaseUrl: database.url,
      temporalAddress: env.address,
      temporalNamespace: env.namespace,
      taskQueue,
      dir: join(dir, `worker-${workers.length}`),
    }),
  });
  workers.push(worker);
  return worker;
}

const workspaces = Array.from({ length: WORKSPACES }, (_, i) => `balanced-${i}`);

/** Once each workspace is relayed by exactly one of `running` and none has more than `share`. */
const spread = (running: readonly WorkerProcess[], share: number) =>
  eventually(
    async () => running.map((worker) => workspaces.filter((ws) => worker.relaying.has(ws))),
    (shares) => {
      const held = shares.flat();
      return (
        held.length === WORKSPACES &&
        new Set(held).size === WORKSPACES &&
        shares.every((mine) => mine.length <= share)
      );
    },
    60_000,
  ).then((shares) => shares.map((mine) => mine.length));

/** Posts an answer in every workspace's run; waits until every relay has passed it. */
async function answerEverywhere(message: string) {
  const seqs = await Promise.all(
    workspaces.map(async (ws) => {
      const outcome = await host.execute({
        workspace_id: ws,
        actor: { kind: 'agent', thread_id: 'run' },
        command: {
          type: 'post_message',
          thread_id: 'run',
          message_id: message,
          role: 'assistant',
          content: message,
          run_id: 'run',
        },
      });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
      return outcome.events[0]?.seq ?? 0;
    }),
  );
  for (const [i, ws] of workspaces.entries()) {
    await eventually(
      () => host.cursor(ws, RELAY_CURSOR),
      (seq) => seq >= (seqs[i] ?? 0),
      60_000,
    );
  }
}

const signalsOf = (ws: string) => runSignals(env.client, evaluateRunWorkflowId(host.id, ws, 'run'));

describe('relays of several worker processes on one Postgres store', () => {
  it('hold a fair share each, hand it over to a process that joins, and take up a dead one’s', async () => {
    const [a, b] = [startWorker(), startWorker()];
    await Promise.all([a.ready, b.ready]);
    for (const ws of workspaces) await startRun(host, ws, 'run');
    expect(await spread([a, b], 15)).toEqual([15, 15]);

    const c = startWorker();
    await c.ready;
    expect(await spread([a, b, c], 10)).toEqual([10, 10, 10]);
    await answerEverywhere('after-joining');

    c.child.kill('SIGKILL');
    await c.exited;
    expect(await spread([a, b], 15)).toEqual([15, 15]);
    await answerEverywhere('after-leaving');

    // Every event reached its workflow, once: no two processes relayed a workspace at once.
    for (const ws of workspaces) {
      const signals = await signalsOf(ws);
      expect(signals.map((signal) => signal.type)).toEqual([
        'started',
        'message',
        'message',
        'message',
      ]);
      expect(repeatsOf(signals)).toBe(0);
    }
  }, 300_000);
});

import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TriggerRelay } from '../../src/relay/relay.js';
import { openPostgresStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { dropSchema, freshSchemaName } from '../support/postgres.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../support/postgres-cluster.js';
import { percentile, steadyLoad } from '../support/relay-load.js';
import { devServerEnvironment, uniqueTaskQueue } from '../support/temporal.js';

// The relay on Postgres under a host's steady load, the host writing through a store of its own
// as another process would. No worker runs: the relay's part ends when Temporal takes a signal.
// Postgres is DATABASE_URL, else a throwaway cluster that flushes every commit to disk, as a
// production server does.

let env: TestWorkflowEnvironment;
let cluster: ThrowawayCluster | undefined;
let databaseUrl: string;
const schema = freshSchemaName();
const open = () =>
  openPostgresStore({ databaseUrl, schema }, { feedbackTypes: conformanceFeedbackTypes() });
let engineStore: Store;
let host: Store;
beforeAll(async () => {
  env = await devServerEnvironment();
  cluster = process.env.DATABASE_URL ? undefined : await startThrowawayCluster({ durable: true });
  databaseUrl = process.env.DATABASE_URL ?? cluster?.url ?? '';
  engineStore = await open();
  host = await open();
});
afterAll(async () => {
  await engineStore?.close();
  await host?.close();
  if (cluster === undefined && databaseUrl) await dropSchema(databaseUrl, schema);
  cluster?.stop();
  await env?.teardown();
});

const relayFor = (workspaceId: string) =>
  new TriggerRelay({
    store: engineStore,
    client: env.client,
    taskQueue: uniqueTaskQueue(),
    workspaceId,
    rules: [],
  });

describe('the trigger relay on Postgres', () => {
  // The goal is 1 s behind the head at most; the p99 is held to it and every event to twice that,
  // leaving room for a busy shared machine. A relay that saved its cursor per event, read after
  // a 1 s poll and signalled one event at a time stayed over 1.5 s at the p99 here.
  it("stays within 1 s of the log's head at 50 commands/s for 10 s", async () => {
    const workspaceId = 'steady';
    const relay = await relayFor(workspaceId).follow();
    try {
      const lag = await steadyLoad(host, {
        workspaceId,
        cursor: 'trigger-relay',
        rate: 50,
        seconds: 10,
        catchUpMs: 10_000,
      });
      expect(lag.events).toBe(500);
      expect(lag.lagsMs).toHaveLength(500);
      expect(percentile(lag.lagsMs, 99)).toBeLessThan(1000);
      expect(percentile(lag.lagsMs, 100)).toBeLessThan(2000);
      expect(lag.catchUpMs).toBeLessThan(2000);
    } finally {
      await relay.close();
    }
  });
});

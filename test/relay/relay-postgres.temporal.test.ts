import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TriggerRelay } from '../../src/relay/relay.js';
import { openPostgresStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { dropSchema, freshSchemaName } from '../support/postgres.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../support/postgres-cluster.js';
import { steadyLoad } from '../support/relay-load.js';
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
  // What the relay must do under load: pass every event a host appends meanwhile, and reach the
  // log's head once the load stops. How far behind it trails (the goal is 1 s) depends on the
  // machine, so it is measured by `npm run bench:relay`, not asserted here.
  it("relays every event of a steady load and reaches the log's head", async () => {
    const workspaceId = 'steady';
    const relay = await relayFor(workspaceId).follow();
    try {
      const lag = await steadyLoad(host, {
        workspaceId,
        cursor: 'trigger-relay',
        rate: 50,
        seconds: 4,
        // A deadline for a broken relay, not a measure: a loaded machine only takes longer.
        catchUpMs: 110_000,
      });
      expect(lag.events).toBe(200);
      // Each event's lag is taken as the cursor passes it: one for each, so the cursor reached
      // the head, before the deadline.
      expect(lag.lagsMs).toHaveLength(200);
      expect(lag.catchUpMs).toBeLessThan(Number.POSITIVE_INFINITY);
    } finally {
      await relay.close();
    }
  });
});

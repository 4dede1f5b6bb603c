import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  openPostgresStore,
  type Store,
  StoreOpenError,
  StoreUnavailableError,
} from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { freePort } from '../support/free-port.js';
import { startThrowawayCluster, type ThrowawayCluster } from '../support/postgres-cluster.js';

// Its own cluster, since these tests stop and start the server under the store.
let cluster: ThrowawayCluster;
beforeAll(async () => {
  cluster = await startThrowawayCluster();
});
afterAll(() => cluster?.stop());

// Whatever a dropped connection throws outside an operation's own promise lands here.
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught.length = 0;
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  cluster.restart();
});

const server = (url: string) => `127.0.0.1:${new URL(url).port}`;
const system = { kind: 'system', name: 'system' };
const createThread = (store: Store, thread_id: string) =>
  store.executeUnchecked({
    workspace_id: 'outage',
    actor: system,
    command: { type: 'create_thread', thread_id },
  });

describe('the Postgres store through an outage', () => {
  it('fails the writes in flight with a retryable error when the server dies, and works again once it is back', async () => {
    const store = await openPostgresStore(
      { databaseUrl: cluster.url },
      { feedbackTypes: conformanceFeedbackTypes() },
    );
    try {
      let written = 0;
      let crashed = false;
      // Six writers, each writing until its first failure; the server dies after 60 writes.
      const writers = Array.from({ length: 6 }, async (_, writer) => {
        for (let i = 0; ; i++) {
          try {
            const outcome = await createThread(store, `w${writer}-${i}`);
            expect(outcome.type).toBe('recorded');
            written += 1;
          } catch (error) {
            return { error, crashed };
          }
          if (written >= 60 && !crashed) {
            crashed = true;
            cluster.crash();
          }
        }
      });
      const failures = await Promise.all(writers);
      expect(written).toBeGreaterThanOrEqual(60);

      for (const { error } of failures) {
        expect(error).toBeInstanceOf(StoreUnavailableError);
        expect(error).toMatchObject({ retryable: true, database: server(cluster.url) });
      }
      // The writers' queries were in flight when the server died (not refused afterwards).
      const causes = failures.map(({ error }) => String((error as Error).cause));
      expect(causes).toContain('Error: Connection terminated unexpectedly');
      // Idle pooled clients learn of the drop late; give their errors time to surface.
      await sleep(500);
      expect(uncaught).toEqual([]);

      cluster.restart();
      expect((await createThread(store, 'after-restart')).type).toBe('recorded');
      expect(await store.thread('outage', 'after-restart')).toMatchObject({
        thread_id: 'after-restart',
      });
      expect(uncaught).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('waits for a server that is down when opening, says so, and opens once it is up', async () => {
    cluster.crash();
    // A password in the URL (trust auth ignores it) must never reach a message.
    const url = cluster.url.replace('postgres@', 'postgres:s3cret-password@');
    const waits: string[] = [];
    const opening = openPostgresStore(
      { databaseUrl: url, openTimeoutMs: 20_000, onWait: (line) => waits.push(line) },
      { feedbackTypes: conformanceFeedbackTypes() },
    );
    while (waits.length === 0) await sleep(50);
    cluster.restart();
    const store = await opening;
    try {
      expect(waits[0]).toBe(
        `waiting for Postgres at ${server(cluster.url)} (connect ECONNREFUSED); giving up in ${waits[0]?.match(/giving up in (.*)$/)?.[1]}`,
      );
      expect(waits.join('\n')).not.toContain('s3cret');
      expect((await createThread(store, 'opened-late')).type).toBe('recorded');
    } finally {
      await store.close();
    }
    expect(uncaught).toEqual([]);
  });

  it('gives up at the deadline with one StoreOpenError', async () => {
    const url = `postgres://postgres:s3cret-password@127.0.0.1:${await freePort()}/postgres`;
    const waits: string[] = [];
    const started = Date.now();
    const error = await openPostgresStore(
      { databaseUrl: url, openTimeoutMs: 1_500, onWait: (line) => waits.push(line) },
      { feedbackTypes: conformanceFeedbackTypes() },
    ).catch((e: unknown) => e);
    const elapsed = Date.now() - started;
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error).toMatchObject({ retryable: false, database: server(url) });
    // The reason is the last attempt's: refused, or (on a loaded machine) cut off by the deadline.
    expect((error as Error).message).toMatch(
      new RegExp(`^Postgres at ${server(url)} did not answer within 1\\.5 s \\(.+\\)$`),
    );
    const { waitedMs, attempts } = error as StoreOpenError;
    expect(waitedMs).toBeGreaterThanOrEqual(1_500);
    expect(attempts).toBeGreaterThan(3);
    expect(elapsed).toBeGreaterThanOrEqual(1_500);
    expect(elapsed).toBeLessThan(2_500);
    // One report for one unchanging reason within 10 s.
    expect(waits).toHaveLength(1);
    expect(`${(error as Error).message}${waits}`).not.toContain('s3cret');
  });

  it('fails at once, without waiting, for what waiting cannot fix', async () => {
    const url = cluster.url.replace(/\/postgres$/, '/no_such_database');
    const started = Date.now();
    const error = await openPostgresStore(
      { databaseUrl: url, openTimeoutMs: 20_000 },
      { feedbackTypes: conformanceFeedbackTypes() },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error).toMatchObject({
      attempts: 1,
      message: `Postgres at ${server(url)} refused to open the store: database "no_such_database" does not exist`,
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

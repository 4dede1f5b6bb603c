import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, openStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';
import { backfillContract } from './backfill-contract.js';
import { budgetsContract } from './budgets-contract.js';
import { givenTwoRatings } from './feedback-history.js';
import { judgeVersionsContract } from './judge-versions-contract.js';
import { ledgerContract } from './ledger-contract.js';
import { reviewQueuesContract } from './review-queues-contract.js';
import { storeContract } from './store-contract.js';
import { traceSignalsContract } from './trace-signals-contract.js';
import { usageContract } from './usage-contract.js';

const schema = freshSchemaName();
afterAll(() => dropSchema(databaseUrl(), schema));

storeContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);

ledgerContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);

reviewQueuesContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);

judgeVersionsContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);
usageContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);

budgetsContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);

backfillContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);

traceSignalsContract('Postgres', (options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);

describe('the Postgres store', () => {
  it('is what openStore gives for a URL, sharing the migrated schema', async () => {
    const store: Store = await openStore({
      databaseUrl: databaseUrl(),
      schema,
      feedbackTypes: conformanceFeedbackTypes(),
    });
    const other = await openStore({
      databaseUrl: databaseUrl(),
      schema,
      feedbackTypes: conformanceFeedbackTypes(),
    });
    try {
      await store.executeUnchecked({
        workspace_id: 'pg-open',
        actor: { kind: 'system' },
        command: { type: 'create_thread', thread_id: 't1' },
      });
      expect(await other.thread('pg-open', 't1')).toMatchObject({ thread_id: 't1' });
    } finally {
      await store.close();
      await other.close();
    }
  });

  it('fills the run list columns of runs recorded before them (migration 7)', async () => {
    const fresh = freshSchemaName();
    const options = { feedbackTypes: conformanceFeedbackTypes() };
    const at = { databaseUrl: databaseUrl(), schema: fresh };
    try {
      const first = await openPostgresStore(at, options);
      const system = { kind: 'system', name: 'host' } as const;
      await first.execute({
        workspace_id: 'w',
        actor: system,
        command: { type: 'create_thread', thread_id: 't' },
      });
      for (const run_id of ['r1', 'r2']) {
        await first.execute({
          workspace_id: 'w',
          actor: system,
          command: { type: 'start_run', run_id, thread_id: 't' },
        });
      }
      await first.close();
      // The schema as migration 6 left it: no run list columns, no indexes on them.
      const client = new pg.Client({ connectionString: databaseUrl() });
      await client.connect();
      try {
        await client.query(`SET search_path TO "${fresh}"`);
        await client.query(`DROP INDEX runs_by_start; DROP INDEX runs_by_thread;
          ALTER TABLE runs DROP COLUMN status, DROP COLUMN started_at, DROP COLUMN updated_at;
          DELETE FROM schema_migrations WHERE version = 7`);
      } finally {
        await client.end();
      }
      const second = await openPostgresStore(at, options);
      try {
        const runs = await second.runs('w', { limit: 10, status: 'running', thread_id: 't' });
        expect(runs.map((run) => run.run_id)).toEqual(['r2', 'r1']);
      } finally {
        await second.close();
      }
    } finally {
      await dropSchema(databaseUrl(), fresh);
    }
  });

  it('fills the last-given column of feedback recorded before it (migration 9)', async () => {
    const fresh = freshSchemaName();
    let clock = Date.parse('2026-02-01T09:00:00Z');
    const options = { feedbackTypes: conformanceFeedbackTypes(), now: () => new Date(clock) };
    const at = { databaseUrl: databaseUrl(), schema: fresh };
    try {
      const first = await openPostgresStore(at, options);
      await givenTwoRatings(first, () => {
        clock += 60_000;
      });
      await first.close();
      // The schema as migration 8 left it: no last-given column, no population index.
      const client = new pg.Client({ connectionString: databaseUrl() });
      await client.connect();
      try {
        await client.query(`SET search_path TO "${fresh}"`);
        await client.query(`DROP INDEX feedback_by_type_source;
          ALTER TABLE feedback DROP COLUMN updated_at;
          DELETE FROM schema_migrations WHERE version = 9`);
      } finally {
        await client.end();
      }
      const second = await openPostgresStore(at, options);
      try {
        const late = await second.feedback('w', {
          feedback_type: 'helpfulness',
          source: 'USER',
          updated_from: '2026-02-01T09:03:00Z',
        });
        expect(late.map((record) => record.value.rating)).toEqual([2]);
      } finally {
        await second.close();
      }
    } finally {
      await dropSchema(databaseUrl(), fresh);
    }
  });

  it('gives a new schema a new id, the same for two stores that create it at once', async () => {
    const fresh = freshSchemaName();
    try {
      const open = () =>
        openPostgresStore(
          { databaseUrl: databaseUrl(), schema: fresh },
          { feedbackTypes: conformanceFeedbackTypes() },
        );
      // Eight at once: two alone raced on creating the schema only now and then.
      const [a, ...others] = await Promise.all(Array.from({ length: 8 }, open));
      const existing = await open();
      await Promise.all([a, ...others, existing].map((store) => store?.close()));
      for (const b of others) expect(b.id).toBe(a?.id);
      expect(existing.id).toBe(a?.id);
      const other = await openPostgresStore(
        { databaseUrl: databaseUrl(), schema },
        { feedbackTypes: conformanceFeedbackTypes() },
      );
      await other.close();
      expect(other.id).not.toBe(a?.id);
    } finally {
      await dropSchema(databaseUrl(), fresh);
    }
  });

  it('keeps seq gap-free across two stores writing one workspace at once', async () => {
    const a = await openPostgresStore(
      { databaseUrl: databaseUrl(), schema },
      { feedbackTypes: conformanceFeedbackTypes() },
    );
    const b = await openPostgresStore(
      { databaseUrl: databaseUrl(), schema },
      { feedbackTypes: conformanceFeedbackTypes() },
    );
    try {
      await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 ? a : b).executeUnchecked({
            workspace_id: 'pg-race',
            actor: { kind: 'system' },
            command: { type: 'create_thread', thread_id: `t${i}` },
          }),
        ),
      );
      expect((await a.events({ workspace_id: 'pg-race' })).map((e) => e.seq)).toEqual(
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore, openStore } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { backfillContract } from './backfill-contract.js';
import { budgetsContract } from './budgets-contract.js';
import { givenTwoRatings } from './feedback-history.js';
import { judgeVersionsContract } from './judge-versions-contract.js';
import { ledgerContract } from './ledger-contract.js';
import { reviewQueuesContract } from './review-queues-contract.js';
import { storeContract } from './store-contract.js';
import { traceSignalsContract } from './trace-signals-contract.js';
import { usageContract } from './usage-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'evalflow-sqlite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('SQLite', async (options) => openSqliteStore(join(dir, 'contract.db'), options));

ledgerContract('SQLite', async (options) => openSqliteStore(join(dir, 'ledger.db'), options));

reviewQueuesContract('SQLite', async (options) =>
  openSqliteStore(join(dir, 'review-queues.db'), options),
);

judgeVersionsContract('SQLite', async (options) =>
  openSqliteStore(join(dir, 'judge-versions.db'), options),
);
usageContract('SQLite', async (options) => openSqliteStore(join(dir, 'usage.db'), options));

budgetsContract('SQLite', async (options) => openSqliteStore(join(dir, 'budgets.db'), options));
backfillContract('SQLite', async (options) => openSqliteStore(join(dir, 'backfill.db'), options));

traceSignalsContract('SQLite', async (options) =>
  openSqliteStore(join(dir, 'trace-signals.db'), options),
);

describe('the SQLite store on disk', () => {
  it('opens the default file under .evalflow/, creating the folder', async () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const store = await openStore({ feedbackTypes: conformanceFeedbackTypes() });
      await store.close();
      expect(existsSync(join(dir, '.evalflow', 'evalflow.db'))).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it('fills the run list columns of runs recorded before them (migration 7)', async () => {
    const path = join(dir, 'before-run-lists.db');
    const options = { feedbackTypes: conformanceFeedbackTypes() };
    const first = openSqliteStore(path, options);
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
    // The schema as migration 6 left it: no run list columns, no indexes on them (migration
    // 13's too, which SQLite will not drop with the column).
    const db = new Database(path);
    db.exec(`DROP INDEX runs_by_start; DROP INDEX runs_by_thread; DROP INDEX runs_by_update;
      ALTER TABLE runs DROP COLUMN status; ALTER TABLE runs DROP COLUMN started_at;
      ALTER TABLE runs DROP COLUMN updated_at; DELETE FROM schema_migrations WHERE version = 7`);
    db.close();
    const second = openSqliteStore(path, options);
    try {
      const runs = await second.runs('w', { limit: 10, status: 'running', thread_id: 't' });
      expect(runs.map((run) => run.run_id)).toEqual(['r2', 'r1']);
    } finally {
      await second.close();
    }
  });

  it('reads the spans stored a row each, before batch rows, with those stored since', async () => {
    const path = join(dir, 'span-rows.db');
    const store = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    await store.close();
    const db = new Database(path);
    db.prepare(
      `INSERT INTO trace_spans (workspace_id, trace_id, span_id, body, received_at)
         VALUES ('w', 't', ?, ?, '2026-01-01T00:00:00.000Z')`,
    ).run('s1', JSON.stringify({ v: 'old' }));
    db.close();
    const again = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    try {
      const span = (span_id: string) => ({ trace_id: 't', span_id, body: { v: span_id } });
      await again.traceSpans.put('w', [span('s1'), span('s2')], []);
      expect(await again.traceSpans.ofTrace('w', 't')).toEqual([{ v: 'old' }, { v: 's2' }]);
    } finally {
      await again.close();
    }
  });

  it('fills the last-given column of feedback recorded before it (migration 9)', async () => {
    const path = join(dir, 'before-verdict-reads.db');
    let clock = Date.parse('2026-02-01T09:00:00Z');
    const options = { feedbackTypes: conformanceFeedbackTypes(), now: () => new Date(clock) };
    const first = openSqliteStore(path, options);
    await givenTwoRatings(first, () => {
      clock += 60_000;
    });
    await first.close();
    // The schema as migration 8 left it: no last-given column, no population index.
    const db = new Database(path);
    db.exec(`DROP INDEX feedback_by_type_source; ALTER TABLE feedback DROP COLUMN updated_at;
      DELETE FROM schema_migrations WHERE version = 9`);
    db.close();
    const second = openSqliteStore(path, options);
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
  });

  it('keeps the log across reopening, migrating only once', async () => {
    const path = join(dir, 'nested', 'reopen.db');
    const first = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    await first.executeUnchecked({
      workspace_id: 'w',
      actor: { kind: 'system' },
      command: { type: 'create_thread', thread_id: 't1' },
    });
    await first.close();
    const second = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    expect(await second.thread('w', 't1')).toMatchObject({ thread_id: 't1' });
    expect(
      await second.executeUnchecked({
        workspace_id: 'w',
        actor: { kind: 'system' },
        command: { type: 'create_thread', thread_id: 't2' },
      }),
    ).toMatchObject({ events: [{ seq: 2 }] });
    await second.close();
  });

  it('gives a new file a new id and keeps a file its id across reopening', async () => {
    const path = join(dir, 'identity.db');
    const first = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    const elsewhere = openSqliteStore(join(dir, 'identity-2.db'), {
      feedbackTypes: conformanceFeedbackTypes(),
    });
    await first.close();
    await elsewhere.close();
    const reopened = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    await reopened.close();
    expect(reopened.id).toBe(first.id);
    expect(elsewhere.id).not.toBe(first.id);
  });

  it('serializes two stores writing one file', async () => {
    const path = join(dir, 'shared.db');
    const a = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    const b = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).executeUnchecked({
          workspace_id: 'w',
          actor: { kind: 'system' },
          command: { type: 'create_thread', thread_id: `t${i}` },
        }),
      ),
    );
    expect((await a.events({ workspace_id: 'w' })).map((e) => e.seq)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    await a.close();
    await b.close();
  });
});

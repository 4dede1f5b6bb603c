import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { givenTwoRatings } from './feedback-history.js';

// Each index on the two tables every append writes (events, feedback) is there for a query:
// SQLite's plan for each of those queries, in the shape the store writes them (reads.ts,
// load-state.ts), uses it. An index no query's plan names would be pages written for nothing.

const dir = mkdtempSync(join(tmpdir(), 'evalflow-plans-'));
let db: Database.Database;
beforeAll(async () => {
  const path = join(dir, 'plans.db');
  const store = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
  await givenTwoRatings(store, () => {});
  await store.close();
  db = new Database(path, { readonly: true });
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

const planOf = (sql: string, params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
    .map((row) => row.detail)
    .join('; ');

const feedbackWhere = (filters: string) =>
  `SELECT body FROM feedback WHERE workspace_id = ? AND ${filters} ORDER BY seq`;

describe('the indexes an append writes', () => {
  it.each([
    // The decision's state: the feedback on one target (every give_feedback).
    ['feedback_by_target', feedbackWhere('target_key = ?'), ['w', 'thread:t']],
    // A conversation's message feedback, a thread's users' ratings.
    [
      'feedback_by_thread',
      `SELECT target_key, body FROM feedback WHERE workspace_id = ? AND thread_id = ?
       AND target_kind = 'message' ORDER BY seq`,
      ['w', 't'],
    ],
    // A reviewer's own verdicts of a queue's type; a version's verdicts (agreement).
    [
      'feedback_by_participant',
      feedbackWhere('participant = ? AND feedback_type = ?'),
      ['w', 'user:ada', 'helpfulness'],
    ],
    // A source's verdicts (the score summary), and a type's from one source (agreement).
    ['feedback_by_source', feedbackWhere('source = ?'), ['w', 'USER']],
    [
      'feedback_by_type_source',
      feedbackWhere('feedback_type = ? AND source = ?'),
      ['w', 'helpfulness', 'USER'],
    ],
    // A thread's events (its page of the log).
    [
      'events_by_thread',
      `SELECT seq FROM events WHERE workspace_id = ? AND seq > ? AND thread_id = ?
       ORDER BY seq LIMIT ?`,
      ['w', 0, 't', 10],
    ],
  ])('%s serves %s', (index, sql, params) => {
    expect(planOf(sql, params)).toContain(`INDEX ${index}`);
  });

  it("reads a source's verdicts, and a type's from one source, in seq order with no sort", () => {
    expect(planOf(feedbackWhere('source = ?'), ['w', 'USER'])).not.toContain('TEMP B-TREE');
    const plan = planOf(feedbackWhere('feedback_type = ? AND source = ?'), ['w', 'h', 'USER']);
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('keeps no other index on the two tables', () => {
    const names = (
      db
        .prepare(
          `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('events', 'feedback')
           AND sql IS NOT NULL ORDER BY name`,
        )
        .all() as { name: string }[]
    ).map((row) => row.name);
    expect(names).toEqual([
      'events_by_thread',
      'feedback_by_participant',
      'feedback_by_source',
      'feedback_by_target',
      'feedback_by_thread',
      'feedback_by_type_source',
    ]);
  });
});

import type { ReviewSlotState } from '../../core/index.js';
import { asNumber, type Backend, type Row, type Sql } from '../backend.js';
import type { QueueCounts, ReviewerCounts } from './port.js';

// A queue's figures: its items and slots by state, per queue and per reviewer, read from the
// slots' ranks (a lease's end, a verdict's time) against the caller's clock.

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

// Counts of a group of slots: all of them, and those ranked after now, an hour ago and a day
// ago (a lease still live; a verdict in the last hour, the last day).
const COUNT_COLUMNS = `COUNT(*) AS n,
  SUM(CASE WHEN rank > ? THEN 1 ELSE 0 END) AS after_now,
  SUM(CASE WHEN rank > ? THEN 1 ELSE 0 END) AS after_hour,
  SUM(CASE WHEN rank > ? THEN 1 ELSE 0 END) AS after_day`;
const thresholds = (now: Date) => [now.getTime(), now.getTime() - HOUR_MS, now.getTime() - DAY_MS];
const EMPTY = { n: 0, afterNow: 0, afterHour: 0, afterDay: 0 };
const countsOf = (row: Row) => ({
  n: asNumber(row.n),
  afterNow: asNumber(row.after_now ?? 0),
  afterHour: asNumber(row.after_hour ?? 0),
  afterDay: asNumber(row.after_day ?? 0),
});

async function stateCounts(sql: Sql, workspace_id: string, queue_id: string, now: Date) {
  const rows = await sql.all(
    `SELECT state, ${COUNT_COLUMNS} FROM review_slots
     WHERE workspace_id = ? AND queue_id = ? GROUP BY state`,
    [...thresholds(now), workspace_id, queue_id],
  );
  return new Map(rows.map((row) => [String(row.state), countsOf(row)]));
}

/** A queue's items and slots by state. */
export const counts = (backend: Backend, workspace_id: string, queue_id: string, now: Date) =>
  backend.read(async (sql): Promise<QueueCounts> => {
    const byState = await stateCounts(sql, workspace_id, queue_id, now);
    const [head] = await sql.all(
      'SELECT items FROM review_queue_heads WHERE workspace_id = ? AND queue_id = ?',
      [workspace_id, queue_id],
    );
    // The partial index review_items_done holds exactly these: no item is read.
    const [done] = await sql.all(
      `SELECT COUNT(*) AS n FROM review_items
       WHERE workspace_id = ? AND queue_id = ? AND slots_done >= slots`,
      [workspace_id, queue_id],
    );
    const [skips] = await sql.all(
      'SELECT SUM(skips) AS skips FROM review_skips WHERE workspace_id = ? AND queue_id = ?',
      [workspace_id, queue_id],
    );
    const of = (state: ReviewSlotState) => byState.get(state) ?? EMPTY;
    return {
      items: asNumber(head?.items ?? 0),
      items_done: asNumber(done?.n ?? 0),
      pending: of('free').n + of('leased').n - of('leased').afterNow,
      leased: of('leased').afterNow,
      done: of('done').n,
      skipped: asNumber(skips?.skips ?? 0),
      done_last_hour: of('done').afterHour,
      done_last_day: of('done').afterDay,
    };
  });

/** Each reviewer's leases, verdicts and skips in a queue, by reviewer. */
export const reviewerCounts = (
  backend: Backend,
  workspace_id: string,
  queue_id: string,
  now: Date,
) =>
  backend.read(async (sql): Promise<ReviewerCounts[]> => {
    const rows = await sql.all(
      `SELECT holder, state, ${COUNT_COLUMNS} FROM review_slots
       WHERE workspace_id = ? AND queue_id = ? AND holder IS NOT NULL GROUP BY holder, state`,
      [...thresholds(now), workspace_id, queue_id],
    );
    const skips = await sql.all(
      'SELECT holder, skips FROM review_skips WHERE workspace_id = ? AND queue_id = ?',
      [workspace_id, queue_id],
    );
    const reviewers = new Map<string, ReviewerCounts>();
    const of = (reviewer: string) => {
      let counts = reviewers.get(reviewer);
      if (counts === undefined) {
        counts = {
          reviewer,
          leased: 0,
          done: 0,
          skipped: 0,
          done_last_hour: 0,
          done_last_day: 0,
        };
        reviewers.set(reviewer, counts);
      }
      return counts;
    };
    for (const row of rows) {
      const counts = of(String(row.holder));
      const c = countsOf(row);
      if (row.state === 'leased') counts.leased += c.afterNow;
      if (row.state === 'done') {
        counts.done += c.n;
        counts.done_last_hour += c.afterHour;
        counts.done_last_day += c.afterDay;
      }
    }
    for (const row of skips) of(String(row.holder)).skipped = asNumber(row.skips);
    return [...reviewers.values()].sort((a, b) => (a.reviewer < b.reviewer ? -1 : 1));
  });

/** Every queue id's waiting and leased slots, over the workspaces. */
export const figures = (backend: Backend, now: Date) =>
  backend.read(async (sql) =>
    (
      await sql.all(
        `SELECT queue_id, SUM(CASE WHEN state = 'done' THEN 0 ELSE 1 END) AS depth,
           SUM(CASE WHEN state = 'leased' AND rank > ? THEN 1 ELSE 0 END) AS leased
         FROM review_slots GROUP BY queue_id ORDER BY queue_id`,
        [now.getTime()],
      )
    ).map((row) => ({
      queue_id: String(row.queue_id),
      depth: asNumber(row.depth),
      leased: asNumber(row.leased),
    })),
  );

import { v5 as uuidv5 } from 'uuid';
import {
  type ReviewSlotState,
  replay,
  type StoredReviewQueue,
  type Target,
  targetKey,
} from '../../core/index.js';
import { asNumber, type Backend, parseJson, type Row, type Sql } from '../backend.js';
import { envelopeOf } from '../reads/reads.js';
import { claimSlot } from './claim.js';
import type {
  Completion,
  EnqueuedItem,
  HeldSlot,
  QueueCounts,
  ReviewerCounts,
  ReviewItem,
  ReviewQueueStore,
} from './port.js';
import { matchingTargets, resolveTargets } from './targets.js';
import { countItemVerdict, countVerdict, reviewersVerdicts } from './verdicts.js';

// A fixed namespace: an item's id derives from its queue and target, so enqueueing the same target
// again (a routing rule replayed, a manual add) names the same item, and a link to it stays good.
const ITEM_NAMESPACE = '7d4f0b55-3c8e-4b9e-9a52-1f0c6d2e8a31';

/** The id of a target's item in a queue. */
export const reviewItemId = (queue_id: string, target_key: string): string =>
  uuidv5(`${queue_id}\n${target_key}`, ITEM_NAMESPACE);

const HOUR_MS = 60 * 60 * 1000;
// Items added at once past which Postgres is told to analyze the queue tables: until its
// statistics know a queue is large, its planner may read a slot or an item through an index that
// names the queue alone, a scan of the whole queue (autovacuum analyzes later, on its own time).
const ANALYZE_AFTER = 1000;
const DAY_MS = 24 * HOUR_MS;
// Rows per multi-row insert: well under every driver's limit on placeholders.
const ROWS_PER_INSERT = 200;

/** Where targets are queued: the queue, its feedback type, and the caller's clock. */
interface QueuedTargets {
  workspace_id: string;
  queue_id: string;
  feedback_type: string;
  now: Date;
}

const itemOf = (row: Row): ReviewItem => ({
  item_id: String(row.item_id),
  queue_id: String(row.queue_id),
  target: parseJson<Target>(row.target),
  target_key: String(row.target_key),
  slots: asNumber(row.slots),
  slots_done: asNumber(row.slots_done),
  position: asNumber(row.position),
  enqueued_by: String(row.enqueued_by),
  enqueued_at: String(row.enqueued_at),
});

const isoOf = (ms: unknown) => new Date(asNumber(ms)).toISOString();

/** Takes `count` positions at the queue's end; the first of them. */
async function takePositions(sql: Sql, workspace_id: string, queue_id: string, count: number) {
  await sql.run(
    `INSERT INTO review_queue_heads (workspace_id, queue_id, next_position, items)
     VALUES (?, ?, 1, 0) ON CONFLICT (workspace_id, queue_id) DO NOTHING`,
    [workspace_id, queue_id],
  );
  const [head] = await sql.all(
    `UPDATE review_queue_heads SET next_position = next_position + ?
     WHERE workspace_id = ? AND queue_id = ? RETURNING next_position`,
    [count, workspace_id, queue_id],
  );
  return asNumber(head?.next_position) - count;
}

/** Inserts the items (and their free slots) not queued yet; the keys of those added. */
async function insertItems(
  sql: Sql,
  input: {
    workspace_id: string;
    queue_id: string;
    slots: number;
    targets: readonly Target[];
    enqueued_by: string;
    now: Date;
  },
): Promise<Set<string>> {
  const { workspace_id, queue_id, slots, targets, enqueued_by } = input;
  const added = new Set<string>();
  if (targets.length === 0) return added;
  const first = await takePositions(sql, workspace_id, queue_id, targets.length);
  const at = input.now.toISOString();
  for (let start = 0; start < targets.length; start += ROWS_PER_INSERT) {
    const chunk = targets.slice(start, start + ROWS_PER_INSERT).map((target, i) => {
      const key = targetKey(target);
      return { target, key, item_id: reviewItemId(queue_id, key), position: first + start + i };
    });
    const inserted = await sql.all(
      `INSERT INTO review_items (workspace_id, queue_id, item_id, target_key, target, slots,
         slots_done, position, enqueued_by, enqueued_at)
       VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, 0, ?, ?, ?)').join(', ')}
       ON CONFLICT DO NOTHING RETURNING item_id`,
      chunk.flatMap((row) => [
        workspace_id,
        queue_id,
        row.item_id,
        row.key,
        JSON.stringify(row.target),
        slots,
        row.position,
        enqueued_by,
        at,
      ]),
    );
    const insertedIds = new Set(inserted.map((row) => String(row.item_id)));
    const fresh = chunk.filter((row) => insertedIds.has(row.item_id));
    if (fresh.length === 0) continue;
    for (const row of fresh) added.add(row.key);
    const slotRows = fresh.flatMap((row) =>
      Array.from({ length: slots }, (_, slot) => ({ row, slot })),
    );
    for (let s = 0; s < slotRows.length; s += ROWS_PER_INSERT) {
      const part = slotRows.slice(s, s + ROWS_PER_INSERT);
      await sql.run(
        `INSERT INTO review_slots (workspace_id, queue_id, item_id, slot, state, rank, holder, target_key)
         VALUES ${part.map(() => "(?, ?, ?, ?, 'free', ?, NULL, ?)").join(', ')}`,
        part.flatMap(({ row, slot }) => [
          workspace_id,
          queue_id,
          row.item_id,
          slot,
          row.position,
          row.key,
        ]),
      );
    }
    await sql.run(
      'UPDATE review_queue_heads SET items = items + ? WHERE workspace_id = ? AND queue_id = ?',
      [fresh.length, workspace_id, queue_id],
    );
  }
  return added;
}

// The common completion (the reviewer's lease, still theirs) as one Postgres statement: one round
// trip and one commit. Anything else (a retry, a slot taken meanwhile) takes the general path.
const COMPLETE_HELD = `WITH held AS (
    UPDATE review_slots SET state = 'done', rank = ?
    WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ? AND state = 'leased'
    RETURNING item_id)
  UPDATE review_items SET slots_done = slots_done + 1
  WHERE workspace_id = ? AND queue_id = ? AND item_id = (SELECT item_id FROM held)
  RETURNING slots, slots_done`;

const LIVE_LEASE = `workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ?
  AND state = 'leased' AND rank > ?`;
const liveLease = (slot: HeldSlot) => [
  slot.workspace_id,
  slot.queue_id,
  slot.item_id,
  slot.reviewer,
  slot.now.getTime(),
];

export function createReviewQueueStore(backend: Backend): ReviewQueueStore {
  const read = backend.read.bind(backend);
  const write = backend.transaction.bind(backend);
  // One statement that commits on its own: on Postgres without a BEGIN and a COMMIT around it.
  const single = backend.dialect === 'postgres' ? read : write;

  const analyzeAfter = async (added: number) => {
    if (backend.dialect !== 'postgres' || added < ANALYZE_AFTER) return;
    // Only the tables' owner may; anyone else still gets right answers, planned less well.
    await read((sql) => sql.run('ANALYZE review_items, review_slots')).catch(() => {});
  };

  const definitions = async (sql: Sql, workspace_id: string) =>
    (
      await sql.all('SELECT body FROM review_queues WHERE workspace_id = ? ORDER BY key', [
        workspace_id,
      ])
    ).map((row) => parseJson<StoredReviewQueue>(row.body));

  /**
   * Counts the verdicts reviewers gave on targets before they were queued. Read once the items
   * are committed, so a verdict recorded meanwhile is counted here or by its own count (`settle`).
   */
  const countEarlierVerdicts = async (queued: QueuedTargets, targets: readonly Target[]) => {
    const { workspace_id, queue_id, feedback_type } = queued;
    const keys = [...new Set(targets.map(targetKey))];
    const verdicts = await read((sql) => reviewersVerdicts(sql, workspace_id, feedback_type, keys));
    for (const verdict of verdicts) {
      await countItemVerdict(backend, {
        workspace_id,
        queue_id,
        item_id: reviewItemId(queue_id, verdict.target_key),
        feedback_type,
        reviewer: verdict.reviewer,
        at: verdict.at,
        now: queued.now.getTime(),
      });
    }
  };

  const completeInSteps = (slot: HeldSlot) =>
    write(async (sql): Promise<Completion> => {
      const key = [slot.workspace_id, slot.queue_id, slot.item_id];
      const done = slot.now.getTime();
      const held = await sql.all(
        `UPDATE review_slots SET state = 'done', rank = ?
           WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ? AND state = 'leased'
           RETURNING slot`,
        [done, ...key, slot.reviewer],
      );
      if (held.length > 0) return { state: 'done', ...(await countVerdict(sql, slot)) };
      const [item] = await sql.all(
        'SELECT slots, slots_done FROM review_items WHERE workspace_id = ? AND queue_id = ? AND item_id = ?',
        key,
      );
      if (item === undefined) return null;
      const counts = { slots: asNumber(item.slots), slots_done: asNumber(item.slots_done) };
      const [mine] = await sql.all(
        'SELECT state FROM review_slots WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ?',
        [...key, slot.reviewer],
      );
      if (mine !== undefined) return { state: 'already', ...counts };
      // Taken from the reviewer while their verdict was being recorded: any slot still open.
      const [open] = await sql.all(
        `SELECT slot FROM review_slots WHERE workspace_id = ? AND queue_id = ? AND item_id = ?
           AND (state = 'free' OR (state = 'leased' AND rank <= ?)) ORDER BY slot LIMIT 1`,
        [...key, done],
      );
      if (open === undefined) return { state: 'over', ...counts };
      await sql.run(
        `UPDATE review_slots SET state = 'done', holder = ?, rank = ?
           WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND slot = ?`,
        [slot.reviewer, done, ...key, open.slot],
      );
      return { state: 'done', ...(await countVerdict(sql, slot)) };
    });

  const store: ReviewQueueStore = {
    definitions: (workspace_id) => read((sql) => definitions(sql, workspace_id)),

    definitionsAt: (workspace_id, seq) =>
      read(async (sql) => {
        const current = await definitions(sql, workspace_id);
        if (current.every((queue) => queue.seq <= seq)) return current;
        const rows = await sql.all(
          `SELECT seq, id, ts, thread_id, run_id, actor, event FROM events
           WHERE workspace_id = ? AND type = 'review_queue_set' AND seq <= ? ORDER BY seq`,
          [workspace_id, seq],
        );
        const state = replay(rows.map((row) => envelopeOf(workspace_id, row)));
        return [...state.reviewQueues.values()].sort((a, b) => (a.queue_id < b.queue_id ? -1 : 1));
      }),

    async enqueue(input) {
      const resolved = await read((sql) => resolveTargets(sql, input.workspace_id, input.targets));
      if (!Array.isArray(resolved)) return resolved;
      // A target named twice is one item: the first mention adds it.
      const byKey = new Map(resolved.map((target) => [targetKey(target), target]));
      const added = await write((sql) =>
        insertItems(sql, { ...input, targets: [...byKey.values()] }),
      );
      await countEarlierVerdicts(input, [...byKey.values()]);
      await analyzeAfter(added.size);
      const seen = new Set<string>();
      return resolved.map((target): EnqueuedItem => {
        const key = targetKey(target);
        const first = !seen.has(key);
        seen.add(key);
        return {
          item_id: reviewItemId(input.queue_id, key),
          target,
          added: first && added.has(key),
        };
      });
    },

    async enqueueMatching(input) {
      const counts = { added: 0, already_queued: 0 };
      let left = input.limit ?? Number.POSITIVE_INFINITY;
      for await (const page of matchingTargets(read, input.workspace_id, input.filter)) {
        const targets = page.slice(0, left);
        const added = await write((sql) => insertItems(sql, { ...input, targets }));
        await countEarlierVerdicts(input, targets);
        counts.added += added.size;
        counts.already_queued += targets.length - added.size;
        left -= targets.length;
        if (left <= 0) break;
      }
      await analyzeAfter(counts.added);
      return counts;
    },

    async claim(input) {
      const row = await claimSlot(backend, input);
      if (row === null) return null;
      return {
        item: itemOf(row),
        slot: asNumber(row.claimed_slot),
        lease_expires_at: new Date(input.now.getTime() + input.lease_ms).toISOString(),
      };
    },

    async heartbeat(slot) {
      const rows = await single((sql) =>
        sql.all(`UPDATE review_slots SET rank = ? WHERE ${LIVE_LEASE} RETURNING rank`, [
          slot.now.getTime() + slot.lease_ms,
          ...liveLease(slot),
        ]),
      );
      return rows[0] === undefined ? null : isoOf(rows[0].rank);
    },

    async release(slot) {
      const rows = await single((sql) =>
        sql.all(
          `UPDATE review_slots SET state = 'free', holder = NULL, rank = (SELECT i.position
             FROM review_items i WHERE i.workspace_id = review_slots.workspace_id
             AND i.queue_id = review_slots.queue_id AND i.item_id = review_slots.item_id)
           WHERE ${LIVE_LEASE} RETURNING slot`,
          liveLease(slot),
        ),
      );
      return rows.length > 0;
    },

    skip: (slot) =>
      write(async (sql) => {
        const end = await takePositions(sql, slot.workspace_id, slot.queue_id, 1);
        const rows = await sql.all(
          `UPDATE review_slots SET state = 'free', holder = NULL, rank = ?
           WHERE ${LIVE_LEASE} RETURNING slot`,
          [end, ...liveLease(slot)],
        );
        if (rows.length === 0) return false;
        await sql.run(
          `INSERT INTO review_skips (workspace_id, queue_id, holder, skips) VALUES (?, ?, ?, 1)
           ON CONFLICT (workspace_id, queue_id, holder) DO UPDATE SET skips = review_skips.skips + 1`,
          [slot.workspace_id, slot.queue_id, slot.reviewer],
        );
        return true;
      }),

    async complete(slot) {
      if (backend.dialect === 'postgres') {
        const [row] = await read((sql) =>
          sql.all(COMPLETE_HELD, [
            slot.now.getTime(),
            slot.workspace_id,
            slot.queue_id,
            slot.item_id,
            slot.reviewer,
            slot.workspace_id,
            slot.queue_id,
          ]),
        );
        if (row !== undefined) {
          return {
            state: 'done',
            slots: asNumber(row.slots),
            slots_done: asNumber(row.slots_done),
          };
        }
      }
      return completeInSteps(slot);
    },

    async settle(input) {
      let counted = 0;
      for (const queue_id of input.queue_ids) {
        const counts = await countItemVerdict(backend, {
          workspace_id: input.workspace_id,
          queue_id,
          item_id: reviewItemId(queue_id, input.target_key),
          feedback_type: input.feedback_type,
          reviewer: input.reviewer,
          at: input.now.getTime(),
          now: input.now.getTime(),
        });
        if (counts) counted += 1;
      }
      return counted;
    },

    item: (workspace_id, queue_id, item_id) =>
      read(async (sql) => {
        const [row] = await sql.all(
          'SELECT * FROM review_items WHERE workspace_id = ? AND queue_id = ? AND item_id = ?',
          [workspace_id, queue_id, item_id],
        );
        if (row === undefined) return null;
        const slots = await sql.all(
          `SELECT slot, state, holder, rank FROM review_slots
           WHERE workspace_id = ? AND queue_id = ? AND item_id = ? ORDER BY slot`,
          [workspace_id, queue_id, item_id],
        );
        return {
          ...itemOf(row),
          slot_states: slots.map((slot) => ({
            slot: asNumber(slot.slot),
            state: slot.state as ReviewSlotState,
            holder: slot.holder === null ? null : String(slot.holder),
            at: slot.state === 'free' ? null : isoOf(slot.rank),
          })),
        };
      }),

    counts: (workspace_id, queue_id, now) =>
      read(async (sql): Promise<QueueCounts> => {
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
      }),

    reviewerCounts: (workspace_id, queue_id, now) =>
      read(async (sql): Promise<ReviewerCounts[]> => {
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
      }),

    figures: (now) =>
      read(async (sql) =>
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
      ),

    reviewedBy: (workspace_id, queue_id, reviewer, limit) =>
      read(async (sql) => {
        const rows = await sql.all(
          `SELECT s.item_id, s.rank, i.target FROM review_slots s JOIN review_items i
             ON i.workspace_id = s.workspace_id AND i.queue_id = s.queue_id AND i.item_id = s.item_id
           WHERE s.workspace_id = ? AND s.queue_id = ? AND s.holder = ? AND s.state = 'done'
           ORDER BY s.rank DESC LIMIT ?`,
          [workspace_id, queue_id, reviewer, limit],
        );
        return rows.map((row) => ({
          item_id: String(row.item_id),
          target: parseJson<Target>(row.target),
          done_at: isoOf(row.rank),
        }));
      }),
  };
  return store;
}

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

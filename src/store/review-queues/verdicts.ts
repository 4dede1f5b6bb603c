import type { FeedbackRecord } from '../../core/index.js';
import { asNumber, type Backend, parseJson, type Sql } from '../backend.js';
import { retryOnUniqueViolation } from './unique-retry.js';

// A reviewer's recorded verdict counts toward the target's item however it was sent: through a
// claim's submit, `POST /v1/reviews`, or before the target was queued. It fills the slot the
// reviewer leases; else, when they hold none, the first open one (free, then a lease past its end,
// then another reviewer's live lease, which ends: the item needs no more verdicts than its slots),
// never the lease of a holder whose own verdict is recorded (that slot is theirs, to be settled).
// Each count is one transaction, idempotent (a reviewer holds at most one slot of an item).

/** A reviewer's verdict on one item. */
export interface ItemVerdict {
  workspace_id: string;
  queue_id: string;
  item_id: string;
  /** The queue's feedback type: the verdicts that count. */
  feedback_type: string;
  /** The reviewer (participant). */
  reviewer: string;
  /** When the verdict was given: the done slot's time. */
  at: number;
  /** The caller's clock: a lease ended by then is open. */
  now: number;
}

/** Counts a verdict on an item (done once it has them all). */
export async function countVerdict(
  sql: Sql,
  item: { workspace_id: string; queue_id: string; item_id: string },
) {
  const [row] = await sql.all(
    `UPDATE review_items SET slots_done = slots_done + 1
     WHERE workspace_id = ? AND queue_id = ? AND item_id = ? RETURNING slots, slots_done`,
    [item.workspace_id, item.queue_id, item.item_id],
  );
  return { slots: asNumber(row?.slots), slots_done: asNumber(row?.slots_done) };
}

// A verdict of the type by `who` on the slot's target is recorded.
const verdictOf = (who: string) => `EXISTS (SELECT 1 FROM feedback f
  WHERE f.workspace_id = s.workspace_id AND f.target_key = s.target_key
  AND f.feedback_type = ? AND f.participant = ${who})`;

// The open slot a verdict fills, in that order: free, a lease past its end, a live lease.
const OPEN_SLOT = `SELECT s.slot FROM review_slots s
  WHERE s.workspace_id = ? AND s.queue_id = ? AND s.item_id = ? AND s.state <> 'done'
    AND NOT (s.state = 'leased' AND ${verdictOf('s.holder')}) AND ${verdictOf('?')}
  ORDER BY CASE WHEN s.state = 'free' THEN 0 WHEN s.rank <= ? THEN 1 ELSE 2 END, s.slot
  LIMIT 1`;

async function fill(sql: Sql, verdict: ItemVerdict, dialect: Backend['dialect']) {
  const key = [verdict.workspace_id, verdict.queue_id, verdict.item_id];
  const held = await sql.all(
    `UPDATE review_slots SET state = 'done', rank = ?
     WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ? AND state = 'leased'
     RETURNING slot`,
    [verdict.at, ...key, verdict.reviewer],
  );
  if (held.length > 0) {
    await countVerdict(sql, verdict);
    return true;
  }
  const mine = await sql.all(
    'SELECT slot FROM review_slots WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ?',
    [...key, verdict.reviewer],
  );
  if (mine.length > 0) return false;
  // On Postgres the slot stays locked until the verdict fills it: a claim skips it meanwhile.
  const [open] = await sql.all(
    dialect === 'postgres' ? `${OPEN_SLOT} FOR UPDATE OF s` : OPEN_SLOT,
    [...key, verdict.feedback_type, verdict.feedback_type, verdict.reviewer, verdict.now],
  );
  if (open === undefined) return false;
  await sql.run(
    `UPDATE review_slots SET state = 'done', holder = ?, rank = ?
     WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND slot = ?`,
    [verdict.reviewer, verdict.at, ...key, open.slot],
  );
  await countVerdict(sql, verdict);
  return true;
}

/** Counts the verdict on its item; false when it counted already, or there is no slot for it. */
export function countItemVerdict(backend: Backend, verdict: ItemVerdict): Promise<boolean> {
  return retryOnUniqueViolation(() =>
    backend.transaction((sql) => fill(sql, verdict, backend.dialect)),
  );
}

const CHUNK = 500;

/** Reviewers' recorded verdicts of a type on some targets (by target key), in log order. */
export async function reviewersVerdicts(
  sql: Sql,
  workspace_id: string,
  feedback_type: string,
  target_keys: readonly string[],
): Promise<{ target_key: string; reviewer: string; at: number }[]> {
  const found: { target_key: string; reviewer: string; at: number }[] = [];
  for (let start = 0; start < target_keys.length; start += CHUNK) {
    const chunk = target_keys.slice(start, start + CHUNK);
    const rows = await sql.all(
      `SELECT target_key, participant, body FROM feedback
       WHERE workspace_id = ? AND feedback_type = ? AND participant LIKE 'reviewer:%'
         AND target_key IN (${chunk.map(() => '?').join(', ')})
       ORDER BY seq`,
      [workspace_id, feedback_type, ...chunk],
    );
    for (const row of rows) {
      found.push({
        target_key: String(row.target_key),
        reviewer: String(row.participant),
        at: Date.parse(parseJson<FeedbackRecord>(row.body).ts),
      });
    }
  }
  return found;
}

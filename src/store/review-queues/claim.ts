import { asNumber, type Backend, type Row, type Sql } from '../backend.js';
import { itemOf } from './item.js';
import type { ClaimedItem, ClaimInput } from './port.js';
import { retryOnUniqueViolation } from './unique-retry.js';

// A claim: the next slot a reviewer may lease, taken in one short write. Expired leases come
// first (their items were at the front when claimed), then the free slot nearest the front; the
// index on (queue, state, rank) gives either directly, without reading the queue. A candidate is
// passed over when the reviewer already holds or did a slot of its item, when the target has the
// reviewer's verdict of the queue's type, and, for an expired lease, when its holder's verdict is
// recorded (the slot is done, waiting for the log's follower to settle it). On Postgres the claim
// is one statement whose candidates are row-locked with SKIP LOCKED, so concurrent reviewers take
// different slots without waiting on each other; on SQLite, whose one writer serializes claims, it
// is a few statements in a transaction.

// On Postgres each NOT EXISTS ends in OFFSET 0, which keeps it a subquery run per candidate with
// the candidate's item and target as its keys, rather than an anti-join the planner may choose to
// run by scanning the reviewer's slots or the workspace's feedback whole (it does so while a
// table's statistics are stale). SQLite runs correlated subqueries that way by itself.
const candidates = (correlated: string) => {
  const mine = `NOT EXISTS (SELECT 1 FROM review_slots m
    WHERE m.workspace_id = s.workspace_id AND m.queue_id = s.queue_id AND m.holder = ?
    AND m.item_id = s.item_id AND m.slot <> s.slot${correlated})`;
  const reviewedBy = (who: string) => `NOT EXISTS (SELECT 1 FROM feedback f
    WHERE f.workspace_id = s.workspace_id AND f.target_key = s.target_key
    AND f.feedback_type = ? AND (${who})${correlated})`;
  return {
    expired: `SELECT s.item_id, s.slot${correlated ? ', s.ctid' : ''} FROM review_slots s
      WHERE s.workspace_id = ? AND s.queue_id = ? AND s.state = 'leased' AND s.rank <= ?
        AND ${mine} AND ${reviewedBy('f.participant = s.holder OR f.participant = ?')}
      ORDER BY s.rank LIMIT 1`,
    free: `SELECT s.item_id, s.slot${correlated ? ', s.ctid' : ''} FROM review_slots s
      WHERE s.workspace_id = ? AND s.queue_id = ? AND s.state = 'free'
        AND ${mine} AND ${reviewedBy('f.participant = ?')}
      ORDER BY s.rank LIMIT 1`,
  };
};
const SQLITE = candidates('');
const POSTGRES = candidates(' OFFSET 0');

const expiredParams = (input: ClaimInput) => [
  input.workspace_id,
  input.queue_id,
  input.now.getTime(),
  input.reviewer,
  input.feedback_type,
  input.reviewer,
];
const freeParams = (input: ClaimInput) => [
  input.workspace_id,
  input.queue_id,
  input.reviewer,
  input.feedback_type,
  input.reviewer,
];

const ITEM_COLUMNS =
  'i.item_id, i.queue_id, i.target, i.target_key, i.slots, i.slots_done, i.position, i.enqueued_by, i.enqueued_at';

// The slot is the row the candidates locked, updated by its tuple id (a TID scan: no index for
// the planner to choose); the item is read by its primary key.
const ONE_STATEMENT = `WITH expired AS (${POSTGRES.expired} FOR UPDATE OF s SKIP LOCKED),
  free AS (${POSTGRES.free} FOR UPDATE OF s SKIP LOCKED),
  pick AS ((SELECT ctid FROM expired) UNION ALL (SELECT ctid FROM free) LIMIT 1)
UPDATE review_slots u SET state = 'leased', holder = ?, rank = ?
WHERE u.ctid = (SELECT ctid FROM pick) AND u.workspace_id = ? AND u.queue_id = ?
RETURNING u.slot AS claimed_slot, (SELECT row_to_json(i) FROM review_items i
  WHERE i.workspace_id = u.workspace_id AND i.queue_id = u.queue_id AND i.item_id = u.item_id) AS item`;

/** Postgres: one statement, one round trip. */
async function claimInOneStatement(sql: Sql, input: ClaimInput): Promise<Row | null> {
  const rows = await sql.all(ONE_STATEMENT, [
    ...expiredParams(input),
    ...freeParams(input),
    input.reviewer,
    input.now.getTime() + input.lease_ms,
    input.workspace_id,
    input.queue_id,
  ]);
  const row = rows[0];
  return row === undefined ? null : { ...(row.item as Row), claimed_slot: row.claimed_slot };
}

/** SQLite: the writer's transaction, so nothing else writes between the choice and the lease. */
async function claimInSteps(sql: Sql, input: ClaimInput): Promise<Row | null> {
  const picked =
    (await sql.all(SQLITE.expired, expiredParams(input)))[0] ??
    (await sql.all(SQLITE.free, freeParams(input)))[0];
  if (picked === undefined) return null;
  await sql.run(
    `UPDATE review_slots SET state = 'leased', holder = ?, rank = ?
     WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND slot = ?`,
    [
      input.reviewer,
      input.now.getTime() + input.lease_ms,
      input.workspace_id,
      input.queue_id,
      picked.item_id,
      picked.slot,
    ],
  );
  const [item] = await sql.all(
    `SELECT ${ITEM_COLUMNS} FROM review_items i
     WHERE i.workspace_id = ? AND i.queue_id = ? AND i.item_id = ?`,
    [input.workspace_id, input.queue_id, picked.item_id],
  );
  return item === undefined ? null : { ...item, claimed_slot: picked.slot };
}

/**
 * Claims a slot; the claimed row (the item's columns and `claimed_slot`), or null. Two claims by
 * one reviewer at once could pick two slots of one item: the holder index refuses the second,
 * which then looks again and passes that item over.
 */
export function claimSlot(backend: Backend, input: ClaimInput): Promise<Row | null> {
  return retryOnUniqueViolation(() =>
    backend.dialect === 'postgres'
      ? backend.read((sql) => claimInOneStatement(sql, input))
      : backend.transaction((sql) => claimInSteps(sql, input)),
  );
}

/** Leases the next slot the reviewer may take: the item, the slot and the lease's end. */
export async function claim(backend: Backend, input: ClaimInput): Promise<ClaimedItem | null> {
  const row = await claimSlot(backend, input);
  if (row === null) return null;
  return {
    item: itemOf(row),
    slot: asNumber(row.claimed_slot),
    lease_expires_at: new Date(input.now.getTime() + input.lease_ms).toISOString(),
  };
}

import type { Backend, Sql } from '../backend.js';
import { isoOf } from './item.js';
import type { HeldSlot } from './port.js';
import { takePositions } from './positions.js';

// A reviewer's lease on a slot: kept (heartbeat), given back at its place (release), or given
// back to the queue's end (skip). Each acts only on a lease still live and the reviewer's.

const LIVE_LEASE = `workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ?
  AND state = 'leased' AND rank > ?`;
const liveLease = (slot: HeldSlot) => [
  slot.workspace_id,
  slot.queue_id,
  slot.item_id,
  slot.reviewer,
  slot.now.getTime(),
];

/** One statement that commits on its own: on Postgres without a BEGIN and a COMMIT around it. */
const single = <T>(backend: Backend, work: (sql: Sql) => Promise<T>) =>
  backend.dialect === 'postgres' ? backend.read(work) : backend.transaction(work);

/** Extends a live lease to `lease_ms` from now; its new end, or null when it is not live. */
export async function heartbeat(backend: Backend, slot: HeldSlot & { lease_ms: number }) {
  const rows = await single(backend, (sql) =>
    sql.all(`UPDATE review_slots SET rank = ? WHERE ${LIVE_LEASE} RETURNING rank`, [
      slot.now.getTime() + slot.lease_ms,
      ...liveLease(slot),
    ]),
  );
  return rows[0] === undefined ? null : isoOf(rows[0].rank);
}

/** Frees a live lease at its item's place; false when it is not live. */
export async function release(backend: Backend, slot: HeldSlot) {
  const rows = await single(backend, (sql) =>
    sql.all(
      `UPDATE review_slots SET state = 'free', holder = NULL, rank = (SELECT i.position
         FROM review_items i WHERE i.workspace_id = review_slots.workspace_id
         AND i.queue_id = review_slots.queue_id AND i.item_id = review_slots.item_id)
       WHERE ${LIVE_LEASE} RETURNING slot`,
      liveLease(slot),
    ),
  );
  return rows.length > 0;
}

/** Frees a live lease at the queue's end and counts the reviewer's skip; false when it is not live. */
export const skip = (backend: Backend, slot: HeldSlot) =>
  backend.transaction(async (sql) => {
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
  });

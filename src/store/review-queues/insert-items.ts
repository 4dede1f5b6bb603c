import { type Target, targetKey } from '../../core/index.js';
import type { Sql } from '../backend.js';
import { reviewItemId } from './item.js';
import { takePositions } from './positions.js';

// Rows per multi-row insert: well under every driver's limit on placeholders.
const ROWS_PER_INSERT = 200;

/** Inserts the items (and their free slots) not queued yet; the keys of those added. */
export async function insertItems(
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

import { asNumber, type Backend } from '../backend.js';
import type { Completion, HeldSlot } from './port.js';
import { countVerdict } from './verdicts.js';

// The common completion (the reviewer's lease, still theirs) as one Postgres statement: one round
// trip and one commit. Anything else (a retry, a slot taken meanwhile) takes the general path.
const COMPLETE_HELD = `WITH held AS (
    UPDATE review_slots SET state = 'done', rank = ?
    WHERE workspace_id = ? AND queue_id = ? AND item_id = ? AND holder = ? AND state = 'leased'
    RETURNING item_id)
  UPDATE review_items SET slots_done = slots_done + 1
  WHERE workspace_id = ? AND queue_id = ? AND item_id = (SELECT item_id FROM held)
  RETURNING slots, slots_done`;

/** Marks the reviewer's slot of an item done, their verdict being recorded. */
export async function complete(backend: Backend, slot: HeldSlot): Promise<Completion> {
  if (backend.dialect === 'postgres') {
    const [row] = await backend.read((sql) =>
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
  return completeInSteps(backend, slot);
}

const completeInSteps = (backend: Backend, slot: HeldSlot) =>
  backend.transaction(async (sql): Promise<Completion> => {
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

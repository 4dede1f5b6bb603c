import { v5 as uuidv5 } from 'uuid';
import type { ReviewSlotState, Target } from '../../core/index.js';
import { asNumber, type Backend, parseJson, type Row } from '../backend.js';
import type { ReviewItem, ReviewQueueStore } from './port.js';

// A fixed namespace: an item's id derives from its queue and target, so enqueueing the same target
// again (a routing rule replayed, a manual add) names the same item, and a link to it stays good.
const ITEM_NAMESPACE = '7d4f0b55-3c8e-4b9e-9a52-1f0c6d2e8a31';

/** The id of a target's item in a queue. */
export const reviewItemId = (queue_id: string, target_key: string): string =>
  uuidv5(`${queue_id}\n${target_key}`, ITEM_NAMESPACE);

/** An item as its row holds it. */
export const itemOf = (row: Row): ReviewItem => ({
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

/** A slot's rank (a time in ms) as an ISO time. */
export const isoOf = (ms: unknown) => new Date(asNumber(ms)).toISOString();

/** An item with the state of each of its slots; null when the queue has no such item. */
export function readItem(
  backend: Backend,
  workspace_id: string,
  queue_id: string,
  item_id: string,
): ReturnType<ReviewQueueStore['item']> {
  return backend.read(async (sql) => {
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
  });
}

import type { Target } from '../../core/index.js';
import { type Backend, parseJson } from '../backend.js';
import { isoOf } from './item.js';

/** The items whose slots the reviewer did, latest first. */
export const reviewedBy = (
  backend: Backend,
  workspace_id: string,
  queue_id: string,
  reviewer: string,
  limit: number,
) =>
  backend.read(async (sql) => {
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
  });

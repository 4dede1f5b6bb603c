import { asNumber, type Sql } from '../backend.js';

/** Takes `count` positions at the queue's end; the first of them. */
export async function takePositions(
  sql: Sql,
  workspace_id: string,
  queue_id: string,
  count: number,
) {
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

import { replay, type StoredReviewQueue } from '../../core/index.js';
import { type Backend, parseJson, type Sql } from '../backend.js';
import { envelopeOf } from '../reads/reads.js';

/** The workspace's queues as defined now, by key. */
export const currentDefinitions = async (sql: Sql, workspace_id: string) =>
  (
    await sql.all('SELECT body FROM review_queues WHERE workspace_id = ? ORDER BY key', [
      workspace_id,
    ])
  ).map((row) => parseJson<StoredReviewQueue>(row.body));

/** The workspace's queues as defined now. */
export const definitions = (backend: Backend, workspace_id: string) =>
  backend.read((sql) => currentDefinitions(sql, workspace_id));

/** The workspace's queues as defined at `seq`: replayed from the log when one changed since. */
export const definitionsAt = (backend: Backend, workspace_id: string, seq: number) =>
  backend.read(async (sql) => {
    const current = await currentDefinitions(sql, workspace_id);
    if (current.every((queue) => queue.seq <= seq)) return current;
    const rows = await sql.all(
      `SELECT seq, id, ts, thread_id, run_id, actor, event FROM events
       WHERE workspace_id = ? AND type = 'review_queue_set' AND seq <= ? ORDER BY seq`,
      [workspace_id, seq],
    );
    const state = replay(rows.map((row) => envelopeOf(workspace_id, row)));
    return [...state.reviewQueues.values()].sort((a, b) => (a.queue_id < b.queue_id ? -1 : 1));
  });

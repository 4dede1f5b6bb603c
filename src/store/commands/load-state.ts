import {
  emptyState,
  type Needs,
  targetKey,
  type ViewName,
  type WorkspaceState,
} from '../../core/index.js';
import { parseJson, type Sql } from '../backend.js';
import { viewTables } from '../schema/view-tables.js';

/** Loads exactly the entities a command needs into `state` (by default an empty one). */
export async function loadState(
  sql: Sql,
  workspace_id: string,
  needs: Needs,
  state: WorkspaceState = emptyState(),
): Promise<WorkspaceState> {
  const load = async (view: ViewName, keys: readonly string[]) => {
    if (keys.length === 0) return;
    const unique = [...new Set(keys)];
    const rows = await sql.all(
      `SELECT key, body FROM ${viewTables[view].table}
       WHERE workspace_id = ? AND key IN (${unique.map(() => '?').join(', ')})`,
      [workspace_id, ...unique],
    );
    const target = state[view] as Map<string, unknown>;
    for (const row of rows) target.set(String(row.key), parseJson(row.body));
  };
  await load('threads', needs.threads);
  await load('runs', needs.runs);
  await load('artifacts', needs.artifacts);
  await load('messages', needs.messages);
  await load('judgeVersions', needs.judgeVersions);
  for (const { thread_id, message_id } of needs.ratingsOn) {
    const rows = await sql.all(
      'SELECT key, body FROM feedback WHERE workspace_id = ? AND target_key = ? AND rating = 1',
      [workspace_id, targetKey({ kind: 'message', thread_id, message_id, run_id: null })],
    );
    for (const row of rows) state.feedback.set(String(row.key), parseJson(row.body));
  }
  for (const { participant, feedback_type, target } of needs.ownFeedback) {
    const rows = await sql.all(
      `SELECT key, body FROM feedback WHERE workspace_id = ? AND target_key = ?
       AND participant = ? AND feedback_type = ?`,
      [workspace_id, targetKey(target), participant, feedback_type],
    );
    for (const row of rows) state.feedback.set(String(row.key), parseJson(row.body));
  }
  return state;
}

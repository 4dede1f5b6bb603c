import type { StoredJudgeVersion } from '../core/index.js';
import { type Backend, parseJson } from './backend.js';

// The workspace's recorded judge versions: a view of the log (`judge_version_recorded`), read
// beside the versions an app declares in code.

/** The recorded judge versions, a read of their view. */
export interface JudgeVersions {
  /** Every recorded version of the workspace, by id (`judge@version`). */
  list(workspace_id: string): Promise<StoredJudgeVersion[]>;
  /** One recorded version by id (`judge@version`), or null when none is recorded under it. */
  get(workspace_id: string, id: string): Promise<StoredJudgeVersion | null>;
}

export function createJudgeVersions(backend: Backend): JudgeVersions {
  return {
    list: (workspace_id) =>
      backend.read(async (sql) =>
        (
          await sql.all('SELECT body FROM judge_versions WHERE workspace_id = ? ORDER BY key', [
            workspace_id,
          ])
        ).map((row) => parseJson<StoredJudgeVersion>(row.body)),
      ),
    get: (workspace_id, id) =>
      backend.read(async (sql) => {
        const rows = await sql.all(
          'SELECT body FROM judge_versions WHERE workspace_id = ? AND key = ?',
          [workspace_id, id],
        );
        return rows[0] === undefined ? null : parseJson<StoredJudgeVersion>(rows[0].body);
      }),
  };
}

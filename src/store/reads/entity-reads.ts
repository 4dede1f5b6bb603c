import { emptyState, isId, targetKey } from '../../core/index.js';
import type { Backend, Sql } from '../backend.js';
import { readEvaluationEntries } from '../evaluation-ledger.js';
import type { EntityReads } from '../port.js';
import { readRunList, readThreadList } from './lists.js';
import {
  readArtifact,
  readConversation,
  readFeedback,
  readMessage,
  readRun,
  readThread,
  readThreadPage,
  readThreadRuns,
  readViews,
} from './reads.js';

/** Reads `work` when every id is one; otherwise answers `absent` at once (see below). */
export type ReadByIds = <T>(
  ids: readonly unknown[],
  absent: T,
  work: (sql: Sql) => Promise<T>,
) => Promise<T>;

/**
 * An id the id rule refuses names nothing, so reading it answers "absent" without asking the
 * database, which could mangle it (a lone surrogate) or refuse it untyped (NUL in Postgres).
 */
export const readByIds =
  (backend: Backend): ReadByIds =>
  (ids, absent, work) =>
    ids.every(isId) ? backend.read(work) : Promise.resolve(absent);

/** The views a page or an evaluator reads, over the backend's read connection. */
export function entityReads(backend: Backend): EntityReads {
  const lookup = readByIds(backend);
  return {
    thread: (workspace_id, thread_id) =>
      lookup([workspace_id, thread_id], null, (sql) => readThread(sql, workspace_id, thread_id)),
    run: (workspace_id, run_id) =>
      lookup([workspace_id, run_id], null, (sql) => readRun(sql, workspace_id, run_id)),
    threads: (workspace_id, options) =>
      lookup([workspace_id], [], (sql) => readThreadList(sql, workspace_id, options)),
    runs: (workspace_id, options) =>
      lookup([workspace_id], [], (sql) => readRunList(sql, workspace_id, options)),
    artifact: (workspace_id, artifact_id, version) =>
      lookup([workspace_id, artifact_id], null, (sql) =>
        readArtifact(sql, workspace_id, artifact_id, version),
      ),
    message: (workspace_id, thread_id, message_id) =>
      lookup([workspace_id, thread_id, message_id], null, (sql) =>
        readMessage(sql, workspace_id, thread_id, message_id),
      ),
    conversation: (workspace_id, thread_id) =>
      lookup([workspace_id, thread_id], null, (sql) =>
        readConversation(sql, workspace_id, thread_id),
      ),
    turn: (workspace_id, run_id, generation) =>
      lookup([workspace_id, run_id], null, async (sql) => {
        const run = await readRun(sql, workspace_id, run_id);
        if (run === null) return null;
        return {
          run,
          conversation: (await readConversation(sql, workspace_id, run.thread_id)) ?? [],
          settled:
            generation === undefined
              ? []
              : await readEvaluationEntries(sql, workspace_id, {
                  generation,
                  target_key: targetKey({ kind: 'turn', run_id }),
                }),
        };
      }),
    threadRuns: (workspace_id, thread_id) =>
      lookup([workspace_id, thread_id], [], (sql) => readThreadRuns(sql, workspace_id, thread_id)),
    threadPage: (workspace_id, thread_id, range) =>
      lookup([workspace_id, thread_id], [], (sql) =>
        readThreadPage(sql, workspace_id, thread_id, range),
      ),
    feedback: (workspace_id, filter) =>
      lookup([workspace_id], [], (sql) => readFeedback(sql, workspace_id, filter)),
    views: (workspace_id) =>
      lookup([workspace_id], emptyState(), (sql) => readViews(sql, workspace_id)),
  };
}

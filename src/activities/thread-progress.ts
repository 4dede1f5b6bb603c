import type { EntityReads, EventLog } from '../store/index.js';
import type { ThreadProgress, ThreadRef } from './types.js';

// Where a thread's workflow left off. The workflow of a thread closes once it has judged all it
// was given, so a thread quiet for months holds nothing in Temporal; the next run or message
// starts a new one, which reads here how far the last one applied the log (a relay that sends
// a page again after a crash then repeats nothing) and which of the thread's runs are open.

/** The store cursor of a thread's workflow: the last seq it applied. */
export const threadCursor = (threadId: string) => `thread:${threadId}`;

export function threadProgressActivities(deps: { store: EntityReads & EventLog }) {
  return {
    async loadThreadProgress({ workspaceId, threadId }: ThreadRef): Promise<ThreadProgress> {
      const appliedThrough = await deps.store.cursor(workspaceId, threadCursor(threadId));
      const runs = await deps.store.threadRuns(workspaceId, threadId);
      return {
        appliedThrough,
        openRuns: runs
          .filter((run) => run.status === 'running' || run.status === 'paused')
          .map((run) => ({ run_id: run.run_id, paused: run.status === 'paused' })),
      };
    },
    async saveThreadProgress({
      workspaceId,
      threadId,
      appliedThrough,
    }: ThreadRef & { appliedThrough: number }): Promise<void> {
      await deps.store.saveCursor(workspaceId, threadCursor(threadId), appliedThrough);
    },
  };
}

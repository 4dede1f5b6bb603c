import type { Envelope } from '../core/index.js';
import type { EventLog, Subscription } from '../store/index.js';

/** Where a log follower reads: a workspace's log after the store cursor it keeps there. */
export interface LogPosition {
  store: EventLog;
  workspaceId: string;
  cursor: string;
  pageSize: number;
}

type PageHandler = (page: readonly Envelope[]) => Promise<void>;

/**
 * Hands `handle` every page of events after the cursor up to the log's head, one at a time;
 * returns how many events. `handle` saves the cursor past each page it is done with.
 */
export async function drainPages(from: LogPosition, handle: PageHandler): Promise<number> {
  const { store, workspaceId, pageSize } = from;
  let after = await store.cursor(workspaceId, from.cursor);
  let handled = 0;
  for (;;) {
    const page = await store.events({ workspace_id: workspaceId, after, limit: pageSize });
    if (page.length === 0) return handled;
    await handle(page);
    handled += page.length;
    after = page[page.length - 1]?.seq ?? after;
  }
}

/** Hands `handle` the pages after the cursor, then each new page as it is appended, until closed. */
export async function followPages(from: LogPosition, handle: PageHandler): Promise<Subscription> {
  const { store, workspaceId, pageSize } = from;
  const after = await store.cursor(workspaceId, from.cursor);
  return store.subscribePages({ workspace_id: workspaceId, after, limit: pageSize }, handle);
}

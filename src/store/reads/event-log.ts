import type { Backend } from '../backend.js';
import type { Coordination } from '../coordination.js';
import type { EventLog, Subscription } from '../port.js';
import { readByIds } from './entity-reads.js';
import { readBacklog, readCursor, readEvents, readHead, writeCursor } from './reads.js';
import { follow, followPages, type Wakeups } from './subscription.js';

/** While other processes' appends wake followers, they poll this seldom (see `pollMs`). */
const LISTENING_POLL_MS = 5000;

export interface EventLogParts {
  backend: Backend;
  coordination: Coordination;
  /** Wakes this process's followers on its own appends (and, listening, on others'). */
  wakeups: Wakeups;
  /** The followers still following, which the store closes first. */
  following: Set<Subscription>;
  /** The longest pause between a follower's reads (see `StoreOptions.pollMs`). */
  pollMs: number;
}

/**
 * The log and its followers. `listening` is left to the store: a getter read once here would
 * freeze its first answer.
 */
export function eventLog(parts: EventLogParts): Omit<EventLog, 'listening'> {
  const { backend, coordination, wakeups, following, pollMs } = parts;
  const lookup = readByIds(backend);
  const read = backend.read.bind(backend);
  const idlePollMs = () => (coordination.listening ? Math.max(pollMs, LISTENING_POLL_MS) : pollMs);
  const tracked = (subscription: Subscription) => {
    coordination.listen(wakeups);
    following.add(subscription);
    void subscription.done.finally(() => following.delete(subscription)).catch(() => {});
    return subscription;
  };
  const events: EventLog['events'] = (options) =>
    lookup(
      options.thread_id === undefined
        ? [options.workspace_id]
        : [options.workspace_id, options.thread_id],
      [],
      (sql) => readEvents(sql, options),
    );
  return {
    events,
    subscribe: (options, listener) =>
      tracked(follow(events, wakeups, idlePollMs, options, listener)),
    subscribePages: (options, listener) =>
      tracked(followPages(events, wakeups, idlePollMs, options, listener)),
    head: (workspace_id) => lookup([workspace_id], 0, (sql) => readHead(sql, workspace_id)),
    cursor: (workspace_id, name) => read((sql) => readCursor(sql, workspace_id, name)),
    saveCursor: (workspace_id, name, seq) =>
      backend.transaction((sql) => writeCursor(sql, workspace_id, name, seq)),
    async workspaces() {
      // A refused command rolls its row back; `last_seq > 0` also passes over any row a store
      // before that left behind.
      const rows = await read((sql) =>
        sql.all('SELECT workspace_id FROM workspaces WHERE last_seq > 0 ORDER BY workspace_id'),
      );
      return rows.map((row) => String(row.workspace_id));
    },
    watchAppends(listener) {
      coordination.listen(wakeups);
      return wakeups.watch(listener);
    },
    backlog: (cursor) => read((sql) => readBacklog(sql, cursor)),
  };
}

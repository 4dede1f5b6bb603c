import type pg from 'pg';
import type { Backend } from '../backend.js';
import type { Wakeups } from '../reads/subscription.js';
import { openSession, type Session } from './session.js';

// Word of appends between processes on one Postgres: after a commit that appended to a
// workspace, the store NOTIFYs its channel with the workspace's id; every process following
// that store LISTENs on it and wakes its followers of the workspace at once.
//
// The NOTIFY goes after the commit, in a statement of its own, not inside the append's
// transaction: Postgres serializes the commits of notifying transactions on one lock, which would
// tie every writer to every other. It is coalesced: one NOTIFY statement in flight per store,
// carrying every workspace appended to meanwhile. A word lost (the process died right after its
// commit, a listener reconnecting) costs latency only: followers still poll, and a listener that
// (re)connects wakes every follower once, for what it may have missed.

/** The listening session is checked this often. */
const HEARTBEAT_MS = 5000;
const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 5000;

/** The channel of a store: its id without dashes, so stores in other schemas never hear it. */
export const appendChannel = (storeId: string) => `evalflow_${storeId.replace(/-/g, '')}`;

export interface AppendNotifications {
  announce(workspace_id: string): void;
  listen(wakeups: Wakeups): void;
  readonly listening: boolean;
  /** Stops listening, after the last announcements went out. */
  close(): Promise<void>;
}

export function appendNotifications(
  config: pg.ClientConfig,
  storeId: string,
  backend: Backend,
): AppendNotifications {
  const channel = appendChannel(storeId);
  const pending = new Set<string>();
  let sending: Promise<void> | null = null;
  let closed = false;
  let session: Session | null = null;
  let wakeups: Wakeups | null = null;
  let retry: NodeJS.Timeout | undefined;

  const send = async () => {
    while (pending.size > 0) {
      const workspaces = [...pending];
      pending.clear();
      await backend
        .read((sql) =>
          sql.run('SELECT pg_notify(?, w) FROM unnest(?::text[]) AS w', [channel, workspaces]),
        )
        // Nobody is told; their polls find the events.
        .catch(() => {});
    }
  };

  const connect = async (pauseMs: number) => {
    try {
      const opened = await openSession(config, 'notifications', HEARTBEAT_MS);
      if (closed) return void (await opened.end());
      opened.client.on('notification', (message) => {
        if (message.channel === channel && message.payload) wakeups?.wake(message.payload);
      });
      await opened.client.query(`LISTEN "${channel}"`);
      if (closed) return void (await opened.end());
      session = opened;
      wakeups?.wakeAll();
      void opened.lost.then(() => {
        if (session === opened) session = null;
        if (closed) return;
        wakeups?.wakeAll();
        reconnect(FIRST_RETRY_MS);
      });
    } catch {
      if (!closed) reconnect(Math.min(pauseMs * 2, LONGEST_RETRY_MS));
    }
  };
  const reconnect = (pauseMs: number) => {
    retry = setTimeout(() => void connect(pauseMs), pauseMs);
    retry.unref();
  };

  return {
    announce(workspace_id) {
      if (closed) return;
      pending.add(workspace_id);
      sending ??= send().finally(() => {
        sending = null;
      });
    },
    listen(woken) {
      if (wakeups !== null || closed) return;
      wakeups = woken;
      void connect(FIRST_RETRY_MS);
    },
    get listening() {
      return session !== null;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await sending;
      await session?.end();
      session = null;
    },
  };
}

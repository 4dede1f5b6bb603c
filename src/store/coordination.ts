import type { Lease, Leases } from './port.js';
import type { Wakeups } from './reads/subscription.js';

/**
 * What a store shares with the other processes on its database: leases, and word of appends so
 * their followers wake at once instead of at their next poll. SQLite serves one engine process,
 * so there it all stays in the process; Postgres does it with advisory locks and LISTEN/NOTIFY
 * (`postgres/coordination.ts`).
 */
export interface Coordination {
  readonly leases: Leases;
  /** Called after a commit that appended to the workspace; never throws, never waits. */
  announce(workspace_id: string): void;
  /** Starts waking `wakeups` when other processes append (once; later calls do nothing). */
  listen(wakeups: Wakeups): void;
  /** Whether other processes' appends wake this process's followers right now. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/** Leases held in this process: one holder per name among this store's callers. */
export function inProcessLeases(): Leases {
  const held = new Set<string>();
  return {
    async take(names) {
      const taken: Lease[] = [];
      for (const name of names) {
        if (held.has(name)) continue;
        held.add(name);
        taken.push({
          name,
          lost: new Promise<void>(() => {}),
          release: async () => {
            held.delete(name);
          },
        });
      }
      return taken;
    },
    countHeld: async (names) => new Set(names.filter((name) => held.has(name))).size,
  };
}

/** For a store no other process follows: its own commits already wake its followers. */
export function inProcessCoordination(): Coordination {
  return {
    leases: inProcessLeases(),
    announce: () => {},
    listen: () => {},
    listening: false,
    close: async () => {},
  };
}

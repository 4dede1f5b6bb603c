import type { Envelope } from '../../core/index.js';
import type { ReadEventsOptions, SubscribeOptions, Subscription } from '../port.js';

/**
 * Wakes a workspace's followers after a commit in this process, or word of one in another
 * (Postgres NOTIFY); writes no word reached are picked up by each follower's poll.
 */
export class Wakeups {
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly #generation = new Map<string, number>();
  /** Wakes of every workspace at once, counted into each one's generation. */
  #everyone = 0;
  readonly #watchers = new Set<(workspace_id: string) => void>();

  /** Calls `watcher` with the workspace of every wake that names one, until the returned stop. */
  watch(watcher: (workspace_id: string) => void): () => void {
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Counts wakes, so a follower that read before a wake knows not to sleep through it. */
  generation(workspace_id: string): number {
    return (this.#generation.get(workspace_id) ?? 0) + this.#everyone;
  }

  /** Wakes every follower: word of appends may have been missed (a listener reconnected). */
  wakeAll(): void {
    this.#everyone++;
    const waiting = [...this.#waiting.values()];
    this.#waiting.clear();
    for (const set of waiting) for (const resolve of set) resolve();
  }

  wake(workspace_id: string): void {
    this.#generation.set(workspace_id, (this.#generation.get(workspace_id) ?? 0) + 1);
    for (const watcher of this.#watchers) watcher(workspace_id);
    const waiting = this.#waiting.get(workspace_id);
    if (waiting === undefined) return;
    this.#waiting.delete(workspace_id);
    for (const resolve of waiting) resolve();
  }

  /**
   * Settles at once if the workspace woke since generation `since`, else at its next wake or
   * after `ms`; `stop` settles it early.
   */
  wait(
    workspace_id: string,
    since: number,
    ms: number,
  ): { settled: Promise<void>; stop: () => void } {
    if (this.generation(workspace_id) > since)
      return { settled: Promise.resolve(), stop: () => {} };
    let stop = () => {};
    const settled = new Promise<void>((resolve) => {
      const waiting = this.#waiting.get(workspace_id) ?? new Set();
      this.#waiting.set(workspace_id, waiting);
      const done = () => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      waiting.add(done);
      stop = done;
    });
    return { settled, stop };
  }
}

const PAGE = 500;

/** The pause before the next read after one that found events: a follower under load stays close. */
const BUSY_POLL_MS = 50;

/**
 * Replays, then follows, by reading the log itself from the last delivered seq: a follower never
 * misses an event or sees one twice, whoever appended it. Each page read goes to `listener` in one
 * call. A full page is followed by the next read at once, a page with events by one after
 * BUSY_POLL_MS; an empty read doubles the pause up to `pollMs` (asked afresh each time: it is
 * longer while another process's appends wake the follower). A wake of `wakeups` ends the pause.
 */
export function followPages(
  read: (options: ReadEventsOptions) => Promise<Envelope[]>,
  wakeups: Wakeups,
  pollMs: number | (() => number),
  options: SubscribeOptions & { limit?: number },
  listener: (page: Envelope[]) => unknown,
): Subscription {
  const limit = options.limit ?? PAGE;
  const longest = typeof pollMs === 'number' ? () => pollMs : pollMs;
  let closed = false;
  let stopWaiting = () => {};
  const run = async () => {
    let after = options.after ?? 0;
    let pause = Math.min(BUSY_POLL_MS, longest());
    while (!closed) {
      const since = wakeups.generation(options.workspace_id);
      const page = await read({ ...options, after, limit });
      if (closed) return;
      if (page.length > 0) {
        await listener(page);
        after = page[page.length - 1]?.seq ?? after;
        pause = Math.min(BUSY_POLL_MS, longest());
      } else {
        pause = Math.min(pause * 2, longest());
      }
      if (page.length < limit && !closed) {
        const waiting = wakeups.wait(options.workspace_id, since, pause);
        stopWaiting = waiting.stop;
        await waiting.settled;
      }
    }
  };
  const done = run();
  // A listener's error ends the subscription; it surfaces through `done`, never unhandled.
  done.catch(() => {});
  return {
    done,
    async close() {
      closed = true;
      stopWaiting();
      await done.catch(() => {});
    },
  };
}

/** `followPages`, one listener call per event. */
export function follow(
  read: (options: ReadEventsOptions) => Promise<Envelope[]>,
  wakeups: Wakeups,
  pollMs: number | (() => number),
  options: SubscribeOptions,
  listener: (envelope: Envelope) => unknown,
): Subscription {
  let closing = false;
  const pages = followPages(read, wakeups, pollMs, options, async (page) => {
    for (const envelope of page) {
      if (closing) return;
      await listener(envelope);
    }
  });
  return {
    done: pages.done,
    async close() {
      closing = true;
      await pages.close();
    },
  };
}

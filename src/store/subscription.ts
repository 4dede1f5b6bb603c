import type { Envelope } from '../core/index.js';
import type { ReadEventsOptions, SubscribeOptions, Subscription } from './port.js';

/**
 * Wakes a workspace's followers after a commit in this process; writes from other processes are
 * picked up by each follower's poll.
 */
export class Wakeups {
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly #generation = new Map<string, number>();

  /** Counts wakes, so a follower that read before a wake knows not to sleep through it. */
  generation(workspace_id: string): number {
    return this.#generation.get(workspace_id) ?? 0;
  }

  wake(workspace_id: string): void {
    this.#generation.set(workspace_id, this.generation(workspace_id) + 1);
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

/**
 * Replays, then follows, by reading the log itself from the last delivered seq: a follower never
 * misses an event or sees one twice, whoever appended it.
 */
export function follow(
  read: (options: ReadEventsOptions) => Promise<Envelope[]>,
  wakeups: Wakeups,
  pollMs: number,
  options: SubscribeOptions,
  listener: (envelope: Envelope) => unknown,
): Subscription {
  let closed = false;
  let stopWaiting = () => {};
  const run = async () => {
    let after = options.after ?? 0;
    while (!closed) {
      const since = wakeups.generation(options.workspace_id);
      const page = await read({ ...options, after, limit: PAGE });
      for (const envelope of page) {
        if (closed) return;
        await listener(envelope);
        after = envelope.seq;
      }
      if (page.length < PAGE && !closed) {
        const waiting = wakeups.wait(options.workspace_id, since, pollMs);
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

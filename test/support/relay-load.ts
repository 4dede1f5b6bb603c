import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../../src/store/index.js';

// A host app's steady load on a workspace, and how far a trigger relay trails it: for the relay's
// Postgres test and `npm run bench:relay`.

const system = { kind: 'system', name: 'system' };

/** A run's commands: its thread, its start, three answers, its end (six events). */
export function runCommands(run: string): object[] {
  return [
    { type: 'create_thread', thread_id: run },
    { type: 'start_run', run_id: run, thread_id: run },
    ...[1, 2, 3].map((i) => ({
      type: 'post_message',
      thread_id: run,
      message_id: `a${i}`,
      role: 'assistant',
      content: `answer ${i}`,
      run_id: run,
    })),
    { type: 'end_run', run_id: run, status: 'completed' },
  ];
}

export interface SteadyLoad {
  workspaceId: string;
  /** The relay's cursor, read every 20 ms to see how far it got. */
  cursor: string;
  /** Commands a second, and for how long. */
  rate: number;
  seconds: number;
  /** Runs in flight at once, each posting its commands in order (default 8). */
  agents?: number;
  /** How long to wait for the relay to catch up once the load stops (default 60 s). */
  catchUpMs?: number;
}

export interface RelayLag {
  /** Events appended. */
  events: number;
  loadSeconds: number;
  /** Each event's time from its append to the relay's cursor passing it, in milliseconds. */
  lagsMs: number[];
  /** The most events appended and not yet relayed at any moment. */
  maxBehind: number;
  behindAtEnd: number;
  /** From the load's end until the cursor reached the head; Infinity if it never did. */
  catchUpMs: number;
  /** When each run's end was appended (epoch milliseconds). */
  endedAt: Map<string, number>;
}

/**
 * Appends runs' commands through `host` at a steady rate (command n is due at n / rate seconds)
 * while watching the relay's saved cursor, then waits for the relay to catch up.
 */
export async function steadyLoad(host: Store, load: SteadyLoad): Promise<RelayLag> {
  const { workspaceId, cursor: cursorName, rate, seconds, agents = 8 } = load;
  const appendedAt = new Map<number, number>();
  const endedAt = new Map<string, number>();
  const lagsMs: number[] = [];
  let maxBehind = 0;
  let cursor = 0;
  let head = 0;
  let loading = true;
  let catchUpBy = Number.POSITIVE_INFINITY;
  let caughtUpAt = Number.POSITIVE_INFINITY;
  const watching = (async () => {
    while ((loading || cursor < head) && performance.now() < catchUpBy) {
      const now = performance.now();
      const seen = await host.cursor(workspaceId, cursorName);
      for (let seq = cursor + 1; seq <= seen; seq++) {
        const at = appendedAt.get(seq);
        if (at !== undefined) lagsMs.push(now - at);
      }
      cursor = Math.max(cursor, seen);
      maxBehind = Math.max(maxBehind, head - cursor);
      if (!loading && cursor >= head) caughtUpAt = performance.now();
      else await sleep(20);
    }
  })();

  const start = performance.now();
  const total = Math.round(rate * seconds);
  await Promise.all(
    Array.from({ length: agents }, async (_, agent) => {
      let queue: object[] = [];
      let runs = 0;
      for (let n = agent; n < total; n += agents) {
        if (queue.length === 0) queue = runCommands(`${workspaceId}-${agent}-${runs++}`);
        const command = queue.shift() as { type: string; run_id?: string };
        const due = start + (n * 1000) / rate;
        if (due > performance.now()) await sleep(due - performance.now());
        const outcome = await host.executeUnchecked({
          workspace_id: workspaceId,
          actor: system,
          command,
        });
        if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
        const at = performance.now();
        for (const envelope of outcome.events) {
          appendedAt.set(envelope.seq, at);
          head = Math.max(head, envelope.seq);
        }
        if (command.type === 'end_run' && command.run_id) endedAt.set(command.run_id, Date.now());
      }
    }),
  );
  const ended = performance.now();
  loading = false;
  catchUpBy = ended + (load.catchUpMs ?? 60_000);
  const behindAtEnd = head - cursor;
  await watching;
  return {
    events: head,
    loadSeconds: (ended - start) / 1000,
    lagsMs,
    maxBehind,
    behindAtEnd,
    catchUpMs: caughtUpAt - ended,
    endedAt,
  };
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

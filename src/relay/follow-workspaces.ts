import type { Client } from '@temporalio/client';
import type { EvaluationRule, ReviewQueue } from '../core/index.js';
import type { Lease, Store, Subscription } from '../store/index.js';
import { QueueRouter } from './queue-router.js';
import { TriggerRelay } from './relay.js';

/** The lease a workspace's relay holds: one relay per workspace across every process. */
export const relayLeaseName = (workspaceId: string) => `relay:${workspaceId}`;

/**
 * Runs a trigger relay for every workspace in the store whose relay no other process runs,
 * starting one for each new workspace as it appears (checked every `pollMs`). Each relay holds
 * its workspace's lease (`store.leases`), so however many processes follow one Postgres store,
 * each workspace is relayed by one of them; when that one dies its leases pass to another at its
 * next look. `close` stops them all and gives their leases up.
 */
export function followWorkspaces(options: {
  store: Store;
  client: Client;
  taskQueue: string;
  /** The app's default rules (see `TriggerRelay`). */
  rules: readonly EvaluationRule[];
  /** The app's default review queues (see `QueueRouter`), routed beside each relay. */
  reviewQueues?: readonly ReviewQueue[];
  /** Limited evaluators' own task queues, by name (see `RelayOptions`). */
  evaluatorTaskQueues?: Readonly<Record<string, string>>;
  /** A run paused longer than this is evaluated as it stands (see `RelayOptions`). */
  abandonAfterMs?: number;
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** Told of each event a relay could not deliver (default `console.warn`). */
  onWarning?: (line: string) => void;
  /** Told, as one line, of each relay this process takes up or gives up (default: nobody). */
  onRelay?: (line: string) => void;
}): { close(): Promise<void> } {
  const following = new Map<string, { subscription: Promise<Subscription>; lease: Lease }>();
  let closed = false;
  const report = (error: unknown) => (options.onError ?? console.error)(error);
  const tell = (line: string) => options.onRelay?.(line);

  const stop = (workspaceId: string, why: string) => {
    const relay = following.get(workspaceId);
    if (relay === undefined) return;
    following.delete(workspaceId);
    tell(`stopped relaying workspace ${workspaceId} (${why})`);
    void relay.subscription
      .then((subscription) => subscription.close())
      .catch(() => {})
      .finally(() => relay.lease.release());
  };

  const start = (workspaceId: string, lease: Lease) => {
    const subscription = both(
      new TriggerRelay({ ...options, workspaceId }).follow(),
      new QueueRouter({
        store: options.store,
        workspaceId,
        queues: options.reviewQueues ?? [],
        ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      }).follow(),
    );
    following.set(workspaceId, { subscription, lease });
    tell(`relaying workspace ${workspaceId}`);
    // Lost (its connection dropped): another process may relay the workspace by now.
    void lease.lost.then(() => {
      if (following.get(workspaceId)?.lease === lease) stop(workspaceId, 'its lease was lost');
    });
    // A relay that failed (Temporal unreachable, say) starts again from its cursor next look,
    // here or in another process.
    subscription
      .then((s) => s.done)
      .catch((error: unknown) => {
        if (following.get(workspaceId)?.lease !== lease) return;
        stop(workspaceId, 'it failed');
        if (!closed) report(error);
      });
  };

  let looking: Promise<void> = Promise.resolve();
  const look = async () => {
    const unfollowed = (await options.store.workspaces()).filter((id) => !following.has(id));
    if (closed || unfollowed.length === 0) return;
    const taken = await options.store.leases.take(unfollowed.map(relayLeaseName));
    const workspaceOf = new Map(unfollowed.map((id) => [relayLeaseName(id), id]));
    for (const lease of taken) {
      const workspaceId = workspaceOf.get(lease.name);
      if (closed || workspaceId === undefined || following.has(workspaceId)) {
        await lease.release();
        continue;
      }
      start(workspaceId, lease);
    }
  };
  // One look at a time: a slow one never overlaps the next.
  const lookNow = () => {
    looking = looking.then(look).catch(report);
  };
  lookNow();
  const timer = setInterval(lookNow, options.pollMs ?? 2000);
  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await looking;
      await Promise.allSettled(
        [...following.values()].map(async ({ subscription, lease }) => {
          await subscription.then((s) => s.close()).catch(() => {});
          await lease.release();
        }),
      );
      following.clear();
    },
  };
}

/** Two followers as one: closed together, done when both are, failed when either fails. */
async function both(a: Promise<Subscription>, b: Promise<Subscription>): Promise<Subscription> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'rejected' || second.status === 'rejected') {
    if (first.status === 'fulfilled') await first.value.close();
    if (second.status === 'fulfilled') await second.value.close();
    throw first.status === 'rejected' ? first.reason : (second as PromiseRejectedResult).reason;
  }
  const subscriptions = [first.value, second.value];
  const close = async () => {
    await Promise.all(subscriptions.map((s) => s.close()));
  };
  const done = Promise.all(subscriptions.map((s) => s.done)).then(() => undefined);
  // Either failing stops the other, so the pair starts again from its cursors together.
  done.catch(() => close().catch(() => {}));
  return { close, done };
}

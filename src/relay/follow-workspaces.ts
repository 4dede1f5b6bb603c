import type { Client } from '@temporalio/client';
import type { EvaluationRule, EvaluatorCatalog, ReviewQueue } from '../core/index.js';
import type { RelayObserver } from '../metrics/observers.js';
import type { OperationsLog } from '../metrics/operations-log.js';
import type {
  Commands,
  EntityReads,
  EvaluationRecords,
  EventLog,
  Lease,
  RuleReads,
  Store,
  Subscription,
  TraceInbox,
} from '../store/index.js';
import { QueueRouter } from './queue-router.js';
import { TriggerRelay } from './relay.js';
import { startTraceSignaller } from './trace-signaller.js';

/** The lease a workspace's relay holds: one relay per workspace across every process. */
export const relayLeaseName = (workspaceId: string) => `relay:${workspaceId}`;

/**
 * The leases by which the processes following a store count each other: each holds one slot,
 * the lowest free, for as long as it follows (a killed one's slot frees with its connection).
 */
export const RELAY_MEMBER_SLOTS = Array.from({ length: 256 }, (_, slot) => `relay-member:${slot}`);

/** The most workspaces each of `members` processes relays: an even share, rounded up. */
export const fairShare = (workspaces: number, members: number) =>
  Math.ceil(workspaces / Math.max(members, 1));

export interface FollowOptions {
  /** What the relays, the routers and the trace signaller use, and the leases they hold. */
  store: Commands &
    EntityReads &
    EvaluationRecords &
    EventLog &
    RuleReads &
    TraceInbox &
    Pick<Store, 'leases'>;
  client: Client;
  taskQueue: string;
  /** The app's default rules (see `TriggerRelay`). */
  rules: readonly EvaluationRule[];
  /** The app's default review queues (see `QueueRouter`), routed beside each relay. */
  reviewQueues?: readonly ReviewQueue[];
  /** Limited evaluators' own task queues, by name (see `RelayOptions`). */
  evaluatorTaskQueues?: Readonly<Record<string, string>>;
  /** The deployed versions, which shadow versions' plans read (see `RelayOptions`). */
  evaluators?: EvaluatorCatalog;
  /** A run paused longer than this is evaluated as it stands (see `RelayOptions`). */
  abandonAfterMs?: number;
  /** How often it counts the processes and looks for workspaces no one relays (2 s). */
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** Told of each event a relay could not deliver (default `console.warn`). */
  onWarning?: (line: string) => void;
  /** Told, as one line, of each relay this process takes up or gives up (default: nobody). */
  onRelay?: (line: string) => void;
  /** Told of the events its relays deliver and those they cannot. */
  observer?: RelayObserver;
  /** Told of each rule set and version promoted (the operations log). */
  log?: OperationsLog;
}

/** The relays of one process; `close` stops them all and gives their leases up. */
export interface Following {
  /** The workspaces this process relays right now. */
  relaying(): string[];
  close(): Promise<void>;
}

/**
 * Runs a trigger relay for the workspaces of the store whose relay no other process runs, each
 * under its workspace's lease (`store.leases`), so however many processes follow one Postgres
 * store, each workspace is relayed by one of them at a time.
 *
 * The processes spread the workspaces between them: each holds a member slot, counts the slots
 * held, and relays at most its fair share (`fairShare`). When one joins, the others find
 * themselves over their share at their next look and hand the excess over (the relay stops, then
 * its lease is released, so there are never two holders), and the newcomer takes it up at its
 * next look; when one leaves or dies, its leases free with its connection and the others take
 * them up to their new share. A new workspace is taken up as word of its first append arrives
 * (in this process at once, from another through the store's notifications), by a process under
 * its share; the look every `pollMs` catches what word missed.
 */
export function followWorkspaces(options: FollowOptions): Following {
  return new WorkspaceFollower(options);
}

/** The state of one process's following, one method per operation (see `followWorkspaces`). */
class WorkspaceFollower implements Following {
  private readonly store: FollowOptions['store'];
  private readonly following = new Map<
    string,
    { subscription: Promise<Subscription>; lease: Lease }
  >();
  /** Every workspace seen: at the last look, or by word of an append since. */
  private known = new Set<string>();
  /** Workspaces word of whose first append arrived since the last look. */
  private readonly arrived = new Set<string>();
  private member: Lease | null = null;
  private closed = false;
  // One look at a time, and at most one waiting: a slow one never overlaps the next.
  private looking: Promise<void> = Promise.resolve();
  private readonly queued = new Set<'look' | 'arrivals'>();
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly stopWatching: () => void;
  private readonly traceSignaller: { close(): Promise<void> };

  constructor(private readonly options: FollowOptions) {
    this.store = options.store;
    this.stopWatching = this.store.watchAppends((workspaceId) => this.heard(workspaceId));
    this.queue('look');
    this.timer = setInterval(() => this.queue('look'), options.pollMs ?? 2000);
    // Beside the workspaces' relays, the OTLP receiver's outbox (one process at a time drains it).
    this.traceSignaller = startTraceSignaller({
      store: this.store,
      client: options.client,
      taskQueue: options.taskQueue,
      onError: this.report,
      ...(options.pollMs !== undefined ? { pollMs: Math.min(options.pollMs, 1000) } : {}),
    });
  }

  relaying(): string[] {
    return [...this.following.keys()];
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.stopWatching();
    await this.traceSignaller.close();
    await this.looking;
    await Promise.allSettled(
      [...this.following.values()].map(async ({ subscription, lease }) => {
        await subscription.then((s) => s.close()).catch(() => {});
        await lease.release();
      }),
    );
    this.following.clear();
    await this.member?.release();
    this.member = null;
  }

  private readonly report = (error: unknown) => (this.options.onError ?? console.error)(error);

  private tell(line: string) {
    this.options.onRelay?.(line);
  }

  /** Word of an append: a workspace not seen before is taken up at once, within the share. */
  private heard(workspaceId: string) {
    if (this.closed || this.known.has(workspaceId)) return;
    this.known.add(workspaceId);
    this.arrived.add(workspaceId);
    this.queue('arrivals');
  }

  private queue(kind: 'look' | 'arrivals') {
    if (this.queued.has(kind)) return;
    this.queued.add(kind);
    this.looking = this.looking
      .then(() => {
        this.queued.delete(kind);
        return kind === 'look' ? this.look() : this.takeArrivals();
      })
      .catch(this.report);
  }

  private async stop(workspaceId: string, why: string) {
    const relay = this.following.get(workspaceId);
    if (relay === undefined) return;
    this.following.delete(workspaceId);
    this.tell(`stopped relaying workspace ${workspaceId} (${why})`);
    // Stopped before released: the next holder never relays beside this one.
    await relay.subscription.then((subscription) => subscription.close()).catch(() => {});
    await relay.lease.release();
  }

  private start(workspaceId: string, lease: Lease) {
    const { options } = this;
    const subscription = both(
      new TriggerRelay({ ...options, workspaceId }).follow(),
      new QueueRouter({
        store: options.store,
        workspaceId,
        queues: options.reviewQueues ?? [],
        ...(options.onWarning ? { onWarning: options.onWarning } : {}),
      }).follow(),
    );
    this.following.set(workspaceId, { subscription, lease });
    this.tell(`relaying workspace ${workspaceId}`);
    const stillHeld = () => this.following.get(workspaceId)?.lease === lease;
    // Lost (its connection dropped): another process may relay the workspace by now.
    void lease.lost.then(() => {
      if (stillHeld()) void this.stop(workspaceId, 'its lease was lost');
    });
    // A relay that failed (Temporal unreachable, say) starts again from its cursor next look,
    // here or in another process.
    subscription
      .then((s) => s.done)
      .catch((error: unknown) => {
        if (!stillHeld()) return;
        void this.stop(workspaceId, 'it failed');
        if (!this.closed) this.report(error);
      });
  }

  /** Takes up at most `room` of `candidates` that no one relays; gives back what it took beyond. */
  private async takeUp(candidates: readonly string[], room: number) {
    const wanted = candidates.filter((id) => !this.following.has(id));
    if (room <= 0 || wanted.length === 0) return;
    const taken = await this.store.leases.take(wanted.map(relayLeaseName));
    const workspaceOf = new Map(wanted.map((id) => [relayLeaseName(id), id]));
    let left = room;
    for (const lease of taken) {
      const workspaceId = workspaceOf.get(lease.name);
      if (
        this.closed ||
        left === 0 ||
        workspaceId === undefined ||
        this.following.has(workspaceId)
      ) {
        await lease.release();
        continue;
      }
      left--;
      this.start(workspaceId, lease);
    }
  }

  /** The lowest free member slot, or null when every one is held. */
  private async join(): Promise<Lease | null> {
    for (const slot of RELAY_MEMBER_SLOTS) {
      const [lease] = await this.store.leases.take([slot]);
      if (lease === undefined) continue;
      void lease.lost.then(() => {
        if (this.member === lease) this.member = null;
      });
      return lease;
    }
    return null;
  }

  /** The processes following the store: the member slots held, and this one past the last slot. */
  private async countMembers(): Promise<number> {
    const held = await this.store.leases.countHeld(RELAY_MEMBER_SLOTS);
    return held + (this.member === null ? 1 : 0);
  }

  /** Counts the processes, then hands over what is beyond this one's share or takes up to it. */
  private async look() {
    if (this.closed) return;
    this.member ??= await this.join();
    const [workspaces, members] = await Promise.all([this.store.workspaces(), this.countMembers()]);
    if (this.closed) return;
    // Word of an append after the read above names a workspace the read may not have seen.
    const candidates = [...new Set([...workspaces, ...this.arrived])];
    this.arrived.clear();
    this.known = new Set(candidates);
    const excess = this.following.size - fairShare(this.known.size, members);
    if (excess > 0) {
      const handed = [...this.following.keys()].sort().slice(-excess);
      const why = `handed over: ${members} processes relay this store`;
      await Promise.all(handed.map((workspaceId) => this.stop(workspaceId, why)));
    } else {
      await this.takeUp(candidates, -excess);
    }
  }

  /** Takes up the workspaces that appeared since the last look, within this one's share. */
  private async takeArrivals() {
    if (this.closed || this.arrived.size === 0) return;
    const fresh = [...this.arrived];
    this.arrived.clear();
    // Counted again (one read): processes may have come or gone since the last look.
    const members = await this.countMembers();
    await this.takeUp(fresh, fairShare(this.known.size, members) - this.following.size);
  }
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

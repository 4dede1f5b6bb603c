import {
  type Envelope,
  queuesInForce,
  type ReviewQueue,
  type StoredReviewQueue,
  type Target,
  targetKey,
} from '../core/index.js';
import type { EntityReads, EvaluationRecords, EventLog } from '../store/index.js';
import { LogFollower } from './log-follower.js';
import { lookupKey, type Routed, route, routingNeeds, settlementOf } from './queue-routing.js';

export interface QueueRouterOptions {
  store: EntityReads & Pick<EvaluationRecords, 'reviewQueues'> & EventLog;
  workspaceId: string;
  /** The app's default queues; the workspace's own override them by id. */
  queues: readonly ReviewQueue[];
  /** The store cursor that remembers how far the router got (default `queue-router`). */
  cursor?: string;
  /** Told, as one line, of each routed target that could not be queued (default `console.warn`). */
  onWarning?: (line: string) => void;
  /** Events read per page; the cursor is saved once per page (default 500). */
  pageSize?: number;
}

/**
 * Follows a workspace's log and does what its events mean for review queues: routing rules put
 * targets into queues as they happen, and a reviewer's recorded verdict settles the slot they
 * lease on its item. At least once: a page relayed again enqueues nothing twice (one item per
 * queue and target) and settles nothing twice. The queues in force are those at each event's
 * seq, kept current by the queue events it passes.
 */
export class QueueRouter extends LogFollower {
  /** The workspace's own queues as of the last event routed (loaded at the first page). */
  private own: Map<string, StoredReviewQueue> | null = null;

  constructor(private readonly options: QueueRouterOptions) {
    super(options, 'queue-router');
  }

  protected handlePage(page: readonly Envelope[]): Promise<void> {
    return this.routePage(page);
  }

  /** Routes and settles a page of consecutive events, then saves the cursor past it. */
  async routePage(page: readonly Envelope[]): Promise<void> {
    const last = page[page.length - 1];
    if (last === undefined) return;
    const { store, workspaceId } = this.options;
    const first = page[0] as Envelope;
    this.own ??= new Map(
      (await store.reviewQueues.definitionsAt(workspaceId, first.seq - 1)).map((q) => [
        q.queue_id,
        q,
      ]),
    );
    const routed: { routed: Routed; at: string }[] = [];
    for (const envelope of page) {
      const { event } = envelope;
      if (event.type === 'review_queue_set') {
        const { type: _type, ...queue } = event;
        this.own.set(queue.queue_id, {
          ...queue,
          set_by: '',
          set_at: envelope.ts,
          seq: envelope.seq,
        });
        continue;
      }
      const queues = queuesInForce(this.options.queues, this.own.values());
      const settlement = settlementOf(queues, envelope);
      if (settlement !== null) {
        await store.reviewQueues.settle({
          workspace_id: workspaceId,
          ...settlement,
          now: new Date(envelope.ts),
        });
      }
      const verdicts = await this.earlierVerdicts(queues, envelope);
      for (const one of route(queues, envelope, verdicts))
        routed.push({ routed: one, at: envelope.ts });
    }
    await this.enqueue(routed);
    await store.saveCursor(workspaceId, this.cursor, last.seq);
  }

  /** The verdicts a disagreement compares with: the other version's, recorded before the event. */
  private async earlierVerdicts(queues: readonly ReviewQueue[], envelope: Envelope) {
    const verdicts = new Map<string, Record<string, unknown>[]>();
    for (const lookup of routingNeeds(queues, envelope)) {
      const records = await this.options.store.feedback(this.options.workspaceId, {
        target: lookup.target,
        participant: lookup.participant,
      });
      verdicts.set(
        lookupKey(lookup),
        records.filter((record) => record.seq < envelope.seq).map((record) => record.value),
      );
    }
    return verdicts;
  }

  /** Queues what the page routed, per queue; a target that cannot be queued is told, not lost. */
  private async enqueue(routed: readonly { routed: Routed; at: string }[]): Promise<void> {
    const { store, workspaceId } = this.options;
    const batches = new Map<
      string,
      { queue_id: string; targets: Target[]; rule: string; at: string }
    >();
    for (const { routed: one, at } of routed) {
      const key = `${one.queue_id}\n${one.rule}`;
      const entry = batches.get(key) ?? { queue_id: one.queue_id, targets: [], rule: one.rule, at };
      entry.targets.push(one.target);
      batches.set(key, entry);
    }
    const queues = new Map(
      queuesInForce(this.options.queues, this.own?.values() ?? []).map((q) => [q.queue_id, q]),
    );
    for (const { queue_id, targets, rule, at } of batches.values()) {
      const queue = queues.get(queue_id);
      if (queue === undefined) continue;
      const input = {
        workspace_id: workspaceId,
        queue_id,
        feedback_type: queue.feedback_type,
        slots: queue.reviewers_per_item,
        enqueued_by: `routing:${rule}`,
        now: new Date(at),
      };
      const queued = await store.reviewQueues.enqueue({ ...input, targets });
      if (Array.isArray(queued)) continue;
      // One target the views lack (feedback on a message never posted, say) refuses the batch:
      // the others are queued one by one, and each refused one is told with its reason.
      for (const target of targets) {
        const one = await store.reviewQueues.enqueue({ ...input, targets: [target] });
        if (!Array.isArray(one)) {
          this.warn(
            `evalflow router: ${targetKey(target)} was routed to review queue ${queue_id} in ` +
              `workspace ${workspaceId} but cannot be queued: ${one.message}`,
          );
        }
      }
    }
  }
}

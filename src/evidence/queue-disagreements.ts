import { type Actor, participantOf, queuesInForce, type ReviewQueue } from '../core/index.js';
import type { EntityReads, EvaluationRecords, EventLog } from '../store/index.js';
import { type AgreementQuery, compareSides } from './compare.js';
import { AgreementQueryError, invalidQuery, missing } from './errors.js';
import type { AgreementApp } from './sides.js';

// The disagreeing targets of a comparison, sent to a review queue in one call: every target the
// two sides disagree on (not only those a report lists), each queued once, in pages.

/** What queueing needs of the app besides the sides: its default queues. */
export interface QueueingApp extends AgreementApp {
  readonly reviewQueues: readonly ReviewQueue[];
}

export interface QueuedDisagreements {
  readonly queueId: string;
  /** The matched targets the sides disagree on: all of them were given to the queue. */
  readonly disagreements: number;
  readonly added: number;
  /** Queued already (by hand, a routing rule, or an earlier call): each target is queued once. */
  readonly alreadyQueued: number;
  /** The comparison's sides as read, and the workspace's seq when reading began. */
  readonly a: string;
  readonly b: string;
  readonly asOfSeq: number;
}

const PAGE = 500;

/**
 * Compares, then puts every disagreeing target in the queue.
 *
 * @throws AgreementQueryError when the comparison cannot be made, the queue is missing or
 * archived, or it does not take a disagreeing target's kind; nothing is queued then.
 */
export async function queueDisagreements(
  store: EntityReads & EventLog & Pick<EvaluationRecords, 'reviewQueues' | 'judgeVersions'>,
  app: QueueingApp,
  query: Omit<AgreementQuery, 'limit'> & {
    readonly queueId: string;
    readonly by: Actor;
    readonly now: Date;
  },
): Promise<QueuedDisagreements> {
  const { queueId, workspaceId } = query;
  const queue = queuesInForce(
    app.reviewQueues,
    await store.reviewQueues.definitions(workspaceId),
  ).find((candidate) => candidate.queue_id === queueId);
  if (queue === undefined) {
    throw missing('review queue', queueId, `review queue ${queueId} does not exist`);
  }
  if (queue.archived) {
    throw new AgreementQueryError({
      type: 'invalid_state',
      message: `review queue ${queueId} is archived`,
    });
  }
  const report = await compareSides(store, app, { ...query, limit: Number.MAX_SAFE_INTEGER });
  const targets = report.disagreements.listed.map((d) => d.target);
  const outside = [...new Set(targets.map((t) => t.kind))].filter(
    (kind) => !(queue.target_kinds as readonly string[]).includes(kind),
  );
  if (outside.length > 0) {
    throw invalidQuery(
      `review queue ${queueId} takes ${queue.target_kinds.join(', ')} targets, and the sides also disagree on ${outside.join(', ')} targets: compare one kind (targetKind)`,
    );
  }
  let added = 0;
  let alreadyQueued = 0;
  for (let start = 0; start < targets.length; start += PAGE) {
    const items = await store.reviewQueues.enqueue({
      workspace_id: workspaceId,
      queue_id: queueId,
      feedback_type: queue.feedback_type,
      slots: queue.reviewers_per_item,
      targets: targets.slice(start, start + PAGE),
      enqueued_by: participantOf(query.by),
      now: query.now,
    });
    if (!Array.isArray(items)) throw new AgreementQueryError(items);
    for (const item of items) {
      if (item.added) added += 1;
      else alreadyQueued += 1;
    }
  }
  return {
    queueId,
    disagreements: targets.length,
    added,
    alreadyQueued,
    a: report.a.side,
    b: report.b.side,
    asOfSeq: report.asOfSeq,
  };
}

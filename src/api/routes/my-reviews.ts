import type { FastifyRequest } from 'fastify';
import { type FeedbackRecord, participantOf, targetKey } from '../../core/index.js';
import { wireFeedback, wireTarget } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { othersVerdicts } from '../item-view.js';
import { queueOf } from '../queues-in-force.js';
import { callerOf, type RouteDeps } from './context.js';

/** The caller's verdicts in a queue, latest first, each beside the others' on its target. */
export async function myReviews(
  deps: RouteDeps,
  request: FastifyRequest,
  queueId: string,
  limit: number,
) {
  const { workspaceId, principal } = callerOf(request);
  const queue = await queueOf(deps.store, deps.app, workspaceId, queueId);
  const reviewer = participantOf(actorOf(principal));
  const done = await deps.store.reviewQueues.reviewedBy(
    workspaceId,
    queue.queue_id,
    reviewer,
    limit,
  );
  const current = new Map(
    (
      await deps.store.feedback(workspaceId, {
        participant: reviewer,
        feedback_type: queue.feedback_type,
      })
    ).map((record) => [record.target_key, record]),
  );
  // The others' verdicts only beside the caller's own: a withdrawn verdict reveals nothing.
  const othersOn = async (record: FeedbackRecord | undefined) =>
    record === undefined
      ? []
      : othersVerdicts(
          await deps.store.feedback(workspaceId, { target: record.target }),
          queue.feedback_type,
          reviewer,
        ).map(wireFeedback);
  return {
    reviews: await Promise.all(
      done.map(async (entry) => {
        const record = current.get(targetKey(entry.target));
        return {
          itemId: entry.item_id,
          target: wireTarget(entry.target),
          doneAt: entry.done_at,
          review: record === undefined ? null : wireFeedback(record),
          otherReviews: await othersOn(record),
        };
      }),
    ),
  };
}

import type { FastifyRequest } from 'fastify';
import { invalidState, participantOf } from '../../core/index.js';
import { wireTarget } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { refuse } from '../errors.js';
import { queueOf } from '../queues-in-force.js';
import { callerOf, type RouteDeps } from './context.js';

/** Leases the next item the caller may review in the queue; null when there is none. */
export async function claimItem(deps: RouteDeps, request: FastifyRequest, queueId: string) {
  const { workspaceId, principal } = callerOf(request);
  const queue = await queueOf(deps.store, deps.app, workspaceId, queueId);
  if (queue.archived) throw refuse(invalidState(`review queue ${queue.queue_id} is archived`));
  const claimed = await deps.store.reviewQueues.claim({
    workspace_id: workspaceId,
    queue_id: queue.queue_id,
    reviewer: participantOf(actorOf(principal)),
    feedback_type: queue.feedback_type,
    lease_ms: queue.lease_seconds * 1000,
    now: deps.now(),
  });
  if (claimed === null) return { item: null };
  return {
    item: {
      itemId: claimed.item.item_id,
      target: wireTarget(claimed.item.target),
      slots: claimed.item.slots,
      slotsDone: claimed.item.slots_done,
      leaseExpiresAt: claimed.lease_expires_at,
    },
  };
}

import type { FastifyRequest } from 'fastify';
import { invalidState, participantOf } from '../../core/index.js';
import { actorOf } from '../../wire/principals.js';
import { refuse } from '../errors.js';
import { queueOf } from '../queues-in-force.js';
import { callerOf, type RouteDeps } from './context.js';

/** The caller (a reviewer), the queue in force and the slot a request names. */
export async function heldSlot(
  deps: RouteDeps,
  request: FastifyRequest,
  params: { queueId: string; itemId: string },
) {
  const { workspaceId, principal } = callerOf(request);
  const queue = await queueOf(deps.store, deps.app, workspaceId, params.queueId);
  const reviewer = participantOf(actorOf(principal));
  const slot = {
    workspace_id: workspaceId,
    queue_id: queue.queue_id,
    item_id: params.itemId,
    reviewer,
    now: deps.now(),
  };
  return { queue, slot, workspaceId, principal };
}

/** The refusal of an act on a lease the reviewer does not hold (any more). */
export const noLease = (reviewer: string, itemId: string, queueId: string) =>
  refuse(
    invalidState(
      `${reviewer} holds no live lease on item ${itemId} of review queue ${queueId}; claim again`,
    ),
  );

import type { FastifyRequest } from 'fastify';
import { forbidden, notFound } from '../../core/index.js';
import { refuse } from '../errors.js';
import { type configStatuses, itemView } from '../item-view.js';
import type { RouteDeps } from './context.js';
import { heldSlot } from './review-slot.js';

/** An item as the reviewer's page shows it; a reviewer reads only an item they lease or did. */
export async function reviewItem(
  deps: RouteDeps,
  statuses: ReturnType<typeof configStatuses>,
  request: FastifyRequest,
  params: { queueId: string; itemId: string },
) {
  const { queue, slot, workspaceId, principal } = await heldSlot(deps, request, params);
  const item = await deps.store.reviewQueues.item(workspaceId, queue.queue_id, slot.item_id);
  if (item === null) throw refuse(notFound('review item', slot.item_id));
  const reviewer = principal.kind === 'reviewer';
  if (reviewer && !item.slot_states.some((s) => s.holder === slot.reviewer)) {
    throw refuse(
      forbidden(`${slot.reviewer} holds no lease on item ${item.item_id}; claim it first`),
    );
  }
  return itemView(
    { store: deps.store, app: deps.app, statuses: () => statuses.read() },
    { workspaceId, queue, item, caller: slot.reviewer, reviewer, now: slot.now },
  );
}

import type { FastifyRequest } from 'fastify';
import type { RouteDeps } from './context.js';
import { heldSlot, noLease } from './review-slot.js';

// The caller's lease on an item: kept for the queue's leaseSeconds from now, given back at its
// place, or skipped to the queue's end. Each refuses a lease the caller does not hold.

type ItemParams = { queueId: string; itemId: string };

export async function keepLease(deps: RouteDeps, request: FastifyRequest, params: ItemParams) {
  const { queue, slot } = await heldSlot(deps, request, params);
  const until = await deps.store.reviewQueues.heartbeat({
    ...slot,
    lease_ms: queue.lease_seconds * 1000,
  });
  if (until === null) throw noLease(slot.reviewer, slot.item_id, queue.queue_id);
  return { itemId: slot.item_id, leaseExpiresAt: until };
}

export async function releaseLease(deps: RouteDeps, request: FastifyRequest, params: ItemParams) {
  const { queue, slot } = await heldSlot(deps, request, params);
  if (!(await deps.store.reviewQueues.release(slot))) {
    throw noLease(slot.reviewer, slot.item_id, queue.queue_id);
  }
  return { itemId: slot.item_id, released: true as const };
}

export async function skipItem(deps: RouteDeps, request: FastifyRequest, params: ItemParams) {
  const { queue, slot } = await heldSlot(deps, request, params);
  if (!(await deps.store.reviewQueues.skip(slot))) {
    throw noLease(slot.reviewer, slot.item_id, queue.queue_id);
  }
  return { itemId: slot.item_id, skipped: true as const };
}

import type { FastifyRequest } from 'fastify';
import { v5 as uuidv5 } from 'uuid';
import { notFound, type ReviewQueue } from '../../core/index.js';
import { wireFeedback } from '../../wire/entities.js';
import { InvalidRequestError, type ReviewClient } from '../../workflow-clients/index.js';
import { HTTP_STATUS, HttpRefusal, refuse } from '../errors.js';
import { othersVerdicts } from '../item-view.js';
import type { RouteDeps } from './context.js';
import { heldSlot, noLease } from './review-slot.js';
import { checkHumanConfig } from './reviews.js';

// A verdict goes through the review path (the target's review workflow, HUMAN against its score
// config) with a request id derived from (queue, item, reviewer), so a retried submit records
// once; only once it is recorded is the slot marked done.

// A fixed namespace: a submit's request id derives from it, so the same (queue, item, reviewer)
// always names the same review request, across retries and restarts.
const REQUEST_NAMESPACE = 'b2a7c7e4-5d1f-4f0e-8c3a-6e9b1d2f4a70';

/**
 * A submit's review request id: (queue, item, reviewer) and the value, so a retry of the same
 * submit records once, while a corrected value after a refusal is a request of its own (the
 * review workflow answers a repeated request id with its first answer).
 */
export const requestIdOf = (
  workspaceId: string,
  queueId: string,
  itemId: string,
  reviewer: string,
  value: unknown,
) =>
  `review-queue:${uuidv5(
    [workspaceId, queueId, itemId, reviewer, JSON.stringify(value)].join('\n'),
    REQUEST_NAMESPACE,
  )}`;

type HeldSlot = Parameters<RouteDeps['store']['reviewQueues']['complete']>[0];

/** Records the caller's verdict on a leased item through the review path, then fills the slot. */
export async function submitVerdict(
  deps: RouteDeps,
  reviews: ReviewClient,
  request: FastifyRequest,
  params: { queueId: string; itemId: string },
  body: { value: Record<string, unknown>; configId?: string | undefined },
) {
  const { queue, slot, workspaceId, principal } = await heldSlot(deps, request, params);
  checkConfig(deps, queue, body.configId);
  const item = await deps.store.reviewQueues.item(workspaceId, queue.queue_id, slot.item_id);
  if (item === null) throw refuse(notFound('review item', slot.item_id));
  // The lease is kept for the review's own time, so no one takes the slot meanwhile. A slot
  // the caller already filled is a retry: the review path answers it as it first did.
  const kept = await deps.store.reviewQueues.heartbeat({
    ...slot,
    lease_ms: queue.lease_seconds * 1000,
  });
  const filled = item.slot_states.some((s) => s.holder === slot.reviewer && s.state === 'done');
  if (kept === null && !filled) throw noLease(slot.reviewer, slot.item_id, queue.queue_id);
  if (principal.kind !== 'reviewer') throw new Error('unreachable: submits are reviewers’');
  const result = await submitReview(reviews, workspaceId, item.target, principal.id, {
    feedback_type: queue.feedback_type,
    value: body.value,
    request_id: requestIdOf(workspaceId, queue.queue_id, item.item_id, slot.reviewer, body.value),
  });
  if (result.type !== 'recorded') {
    // A verdict of the caller's is there already (given outside the queue meanwhile): it
    // fills the caller's slot, as the log's follower would settle it.
    if (result.type === 'conflict') await complete(deps, request, slot);
    throw new HttpRefusal(HTTP_STATUS[result.type], {
      type: result.type,
      message: result.message,
    });
  }
  const completed = await complete(deps, request, slot);
  // Read after the caller's verdict is recorded: only now may a blind queue show them.
  const onTarget = await deps.store.feedback(workspaceId, { target: item.target });
  return {
    itemId: item.item_id,
    review: {
      type: 'recorded' as const,
      seq: result.seq,
      envelopeId: result.envelope_id,
      isUpdate: result.is_update,
      position: result.position,
    },
    slots: completed.slots,
    slotsDone: completed.slots_done,
    done: completed.slots_done >= completed.slots,
    otherReviews: othersVerdicts(onTarget, queue.feedback_type, slot.reviewer).map(wireFeedback),
  };
}

/** The review path's answer to the verdict; a value its config refuses is a validation failure. */
async function submitReview(
  reviews: ReviewClient,
  workspaceId: string,
  target: Parameters<ReviewClient['submit']>[1],
  reviewerId: string,
  review: Parameters<ReviewClient['submit']>[3],
) {
  try {
    return await reviews.submit(workspaceId, target, { id: reviewerId }, review);
  } catch (error) {
    if (error instanceof InvalidRequestError) {
      throw refuse({ type: 'validation_failed', message: error.message, errors: [] });
    }
    throw error;
  }
}

/** A submit names its type's score config: missing is a 400, another config a 422. */
function checkConfig(deps: RouteDeps, queue: ReviewQueue, configId: string | undefined) {
  const type = deps.app.feedbackTypes.get(queue.feedback_type);
  if (type === undefined) throw refuse(notFound('feedback type', queue.feedback_type));
  checkHumanConfig(type, configId);
}

/** Marks the caller's slot done; a verdict beyond the item's slots is logged, never hidden. */
async function complete(deps: RouteDeps, request: FastifyRequest, slot: HeldSlot) {
  const completed = await deps.store.reviewQueues.complete(slot);
  if (completed === null) throw refuse(notFound('review item', slot.item_id));
  if (completed.state === 'over') {
    request.log.warn(
      { queue: slot.queue_id, item: slot.item_id, reviewer: slot.reviewer },
      'a verdict was recorded on an item whose slots were all taken: its lease ran out during the review',
    );
  }
  return completed;
}

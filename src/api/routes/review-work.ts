import type { FastifyRequest } from 'fastify';
import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import {
  type FeedbackRecord,
  forbidden,
  Id,
  invalidState,
  notFound,
  participantOf,
  type ReviewQueue,
  targetKey,
} from '../../core/index.js';
import { WireFeedback, WireTarget, wireFeedback, wireTarget } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { WireClaimedItem } from '../../wire/review-queues.js';
import { InvalidRequestError, ReviewClient } from '../../workflow-clients/index.js';
import { HTTP_STATUS, HttpRefusal, refusalResponses, refuse } from '../errors.js';
import { configStatuses, ItemView, itemView, othersVerdicts } from '../item-view.js';
import { queueOf } from '../queues-in-force.js';
import { callerOf, type Register, type RouteDeps } from './context.js';
import { checkHumanConfig, ReviewActionReply } from './reviews.js';

// A reviewer's work in a queue (docs/api.md#working-through-a-queue): claim the next item (a
// lease the server enforces), read it, keep the lease with heartbeats, give it back (release:
// at its place; skip: to the end), or submit a verdict. A verdict goes through the review path
// (the target's review workflow, HUMAN against its score config) with a request id derived from
// (queue, item, reviewer), so a retried submit records once; only once it is recorded is the
// slot marked done.

const ItemParams = z.object({ queueId: Id, itemId: Id });
const QueueParams = z.object({ queueId: Id });

// Each route's body and answer, named so that the HTTP client's types are these very schemas.
export const ClaimReply = z.object({ item: WireClaimedItem.nullable() });
export const LeaseReply = z.object({ itemId: z.string(), leaseExpiresAt: z.string() });
export const ReleaseReply = z.object({ itemId: z.string(), released: z.literal(true) });
export const SkipReply = z.object({ itemId: z.string(), skipped: z.literal(true) });
export const SubmitBody = z.strictObject({
  value: z.record(z.string(), z.unknown()),
  configId: z.string().min(1).optional(),
});
export const SubmitReply = z.object({
  itemId: z.string(),
  review: ReviewActionReply,
  slots: z.int(),
  slotsDone: z.int(),
  /** The item has every verdict it needs. */
  done: z.boolean(),
  /**
   * Other reviewers' verdicts on the target, read once the caller's is recorded: a blind
   * queue's reveal (empty while no one else has given one).
   */
  otherReviews: z.array(WireFeedback),
});
export const MyReviewsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const MyReviewsReply = z.object({
  reviews: z.array(
    z.object({
      itemId: z.string(),
      target: WireTarget,
      doneAt: z.string(),
      /** The caller's current verdict on the target; null once withdrawn. */
      review: WireFeedback.nullable(),
      /** Other reviewers' verdicts on the target, beside the caller's (none once withdrawn). */
      otherReviews: z.array(WireFeedback),
    }),
  ),
});

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

export const registerReviewWork: Register = (api, deps) => {
  const reviews = new ReviewClient(deps.temporal.client, deps.store, deps.temporal.taskQueue);
  const statuses = configStatuses(deps.scoreConfigs);

  /** The caller (a reviewer), the queue in force and the slot it names. */
  const held = async (request: FastifyRequest & { params: z.output<typeof ItemParams> }) => {
    const { workspaceId, principal } = callerOf(request);
    const queue = await queueOf(deps.store, deps.app, workspaceId, request.params.queueId);
    const reviewer = participantOf(actorOf(principal));
    const slot = {
      workspace_id: workspaceId,
      queue_id: queue.queue_id,
      item_id: request.params.itemId,
      reviewer,
      now: deps.now(),
    };
    return { queue, slot, workspaceId, principal };
  };
  const noLease = (reviewer: string, itemId: string, queueId: string) =>
    refuse(
      invalidState(
        `${reviewer} holds no live lease on item ${itemId} of review queue ${queueId}; claim again`,
      ),
    );

  api.post('/v1/review-queues/:queueId/claim', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Lease the next item the caller may review, or null when there is none',
      description:
        'An expired lease is handed out first, then the free item nearest the front. Never an ' +
        'item the caller holds or reviewed already; an item needing several verdicts goes to ' +
        'that many different reviewers. The lease lasts the queue’s `leaseSeconds` unless kept ' +
        'with heartbeats.',
      params: QueueParams,
      response: { 200: ClaimReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { workspaceId, principal } = callerOf(request);
      const queue = await queueOf(deps.store, deps.app, workspaceId, request.params.queueId);
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
    },
  });

  api.get('/v1/review-queues/:queueId/items/:itemId', {
    config: { allow: ['reviewer', 'system', 'admin'] },
    schema: {
      tags: ['review work'],
      summary: 'An item as the reviewer’s page shows it: the target, its context and the form',
      description:
        'A reviewer reads an item they lease or reviewed. Everything in it is written by agents ' +
        'and people: render it as text. `otherReviews` is empty while the queue is blind and the ' +
        'caller has not given their verdict.',
      params: ItemParams,
      response: { 200: ItemView, ...refusalResponses },
    },
    handler: async (request) => {
      const { queue, slot, workspaceId, principal } = await held(request);
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
    },
  });

  api.post('/v1/review-queues/:queueId/items/:itemId/heartbeat', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Keep the caller’s lease on an item: it lasts leaseSeconds from now',
      params: ItemParams,
      response: { 200: LeaseReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { queue, slot } = await held(request);
      const until = await deps.store.reviewQueues.heartbeat({
        ...slot,
        lease_ms: queue.lease_seconds * 1000,
      });
      if (until === null) throw noLease(slot.reviewer, slot.item_id, queue.queue_id);
      return { itemId: slot.item_id, leaseExpiresAt: until };
    },
  });

  api.post('/v1/review-queues/:queueId/items/:itemId/release', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Give the caller’s lease back: the item returns to its place in the queue',
      params: ItemParams,
      response: { 200: ReleaseReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { queue, slot } = await held(request);
      if (!(await deps.store.reviewQueues.release(slot))) {
        throw noLease(slot.reviewer, slot.item_id, queue.queue_id);
      }
      return { itemId: slot.item_id, released: true as const };
    },
  });

  api.post('/v1/review-queues/:queueId/items/:itemId/skip', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Skip an item: the caller’s lease ends and the item goes to the end of the queue',
      params: ItemParams,
      response: { 200: SkipReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { queue, slot } = await held(request);
      if (!(await deps.store.reviewQueues.skip(slot))) {
        throw noLease(slot.reviewer, slot.item_id, queue.queue_id);
      }
      return { itemId: slot.item_id, skipped: true as const };
    },
  });

  api.post('/v1/review-queues/:queueId/items/:itemId/submit', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Give the caller’s verdict on a leased item, through the review path',
      description:
        'The verdict is the queue’s HUMAN feedback type, validated against its score config ' +
        '(`configId`, the type’s config: without it the answer is 400), and recorded by the ' +
        'target’s review workflow as `POST /v1/reviews` records a submit. A retry records once. ' +
        'The answer carries the other reviewers’ verdicts on the target (`otherReviews`), ' +
        'which a blind queue shows only now. Revise or withdraw it later with `POST /v1/reviews`.',
      params: ItemParams,
      body: SubmitBody,
      response: { 200: SubmitReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { queue, slot, workspaceId, principal } = await held(request);
      checkConfig(deps, queue, request.body.configId);
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
      let result: Awaited<ReturnType<ReviewClient['submit']>>;
      try {
        result = await reviews.submit(
          workspaceId,
          item.target,
          { id: principal.id },
          {
            feedback_type: queue.feedback_type,
            value: request.body.value,
            request_id: requestIdOf(
              workspaceId,
              queue.queue_id,
              item.item_id,
              slot.reviewer,
              request.body.value,
            ),
          },
        );
      } catch (error) {
        if (error instanceof InvalidRequestError) {
          throw refuse({ type: 'validation_failed', message: error.message, errors: [] });
        }
        throw error;
      }
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
        otherReviews: othersVerdicts(onTarget, queue.feedback_type, slot.reviewer).map(
          wireFeedback,
        ),
      };
    },
  });

  api.get('/v1/review-queues/:queueId/my-reviews', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'The caller’s verdicts in this queue, latest first, to revise or withdraw',
      params: QueueParams,
      querystring: MyReviewsQuery,
      response: { 200: MyReviewsReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { workspaceId, principal } = callerOf(request);
      const queue = await queueOf(deps.store, deps.app, workspaceId, request.params.queueId);
      const reviewer = participantOf(actorOf(principal));
      const done = await deps.store.reviewQueues.reviewedBy(
        workspaceId,
        queue.queue_id,
        reviewer,
        request.query.limit,
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
    },
  });
};

/** A submit names its type's score config: missing is a 400, another config a 422. */
function checkConfig(deps: RouteDeps, queue: ReviewQueue, configId: string | undefined) {
  const type = deps.app.feedbackTypes.get(queue.feedback_type);
  if (type === undefined) throw refuse(notFound('feedback type', queue.feedback_type));
  checkHumanConfig(type, configId);
}

/** Marks the caller's slot done; a verdict beyond the item's slots is logged, never hidden. */
async function complete(
  deps: RouteDeps,
  request: FastifyRequest,
  slot: Parameters<RouteDeps['store']['reviewQueues']['complete']>[0],
) {
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

import { z } from 'zod';
import { Id } from '../../core/index.js';
import { WireFeedback, WireTarget } from '../../wire/entities.js';
import { WireClaimedItem } from '../../wire/review-queues.js';
import { ReviewClient } from '../../workflow-clients/index.js';
import { ReviewActionReply } from '../contracts/reviews.js';
import { refusalResponses } from '../errors.js';
import { configStatuses, ItemView } from '../item-view.js';
import { claimItem } from './claim-item.js';
import type { Register } from './context.js';
import { myReviews } from './my-reviews.js';
import { reviewItem } from './review-item.js';
import { keepLease, releaseLease, skipItem } from './review-leases.js';
import { submitVerdict } from './submit-verdict.js';

// A reviewer's work in a queue (docs/api.md#working-through-a-queue): claim the next item (a
// lease the server enforces), read it, keep the lease with heartbeats, give it back (release:
// at its place; skip: to the end), or submit a verdict. A verdict goes through the review path
// (the target's review workflow, HUMAN against its score config) with a request id derived from
// (queue, item, reviewer), so a retried submit records once; only once it is recorded is the
// slot marked done. Each route is declared here; its handler is a function in a file named after
// it.

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

export { requestIdOf } from './submit-verdict.js';

/** The review work routes: each operation's handler is a function of its own file. */
export const registerReviewWork: Register = (api, deps) => {
  const reviews = new ReviewClient(deps.temporal.client, deps.store, deps.temporal.taskQueue);
  const statuses = configStatuses(deps.scoreConfigs);

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
    handler: (request) => claimItem(deps, request, request.params.queueId),
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
    handler: (request) => reviewItem(deps, statuses, request, request.params),
  });

  api.post('/v1/review-queues/:queueId/items/:itemId/heartbeat', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Keep the caller’s lease on an item: it lasts leaseSeconds from now',
      params: ItemParams,
      response: { 200: LeaseReply, ...refusalResponses },
    },
    handler: (request) => keepLease(deps, request, request.params),
  });

  api.post('/v1/review-queues/:queueId/items/:itemId/release', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Give the caller’s lease back: the item returns to its place in the queue',
      params: ItemParams,
      response: { 200: ReleaseReply, ...refusalResponses },
    },
    handler: (request) => releaseLease(deps, request, request.params),
  });

  api.post('/v1/review-queues/:queueId/items/:itemId/skip', {
    config: { allow: ['reviewer'] },
    schema: {
      tags: ['review work'],
      summary: 'Skip an item: the caller’s lease ends and the item goes to the end of the queue',
      params: ItemParams,
      response: { 200: SkipReply, ...refusalResponses },
    },
    handler: (request) => skipItem(deps, request, request.params),
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
    handler: (request) => submitVerdict(deps, reviews, request, request.params, request.body),
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
    handler: (request) => myReviews(deps, request, request.params.queueId, request.query.limit),
  });
};

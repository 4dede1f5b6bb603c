import { z } from 'zod';
import { Id } from '../../core/index.js';
import { WireFeedback, WireTarget } from '../../wire/entities.js';
import { WireClaimedItem } from '../../wire/review-queues.js';
import { ReviewClient } from '../../workflow-clients/index.js';
import { defineRoutes } from '../contracts/contract.js';
import { QueueParams } from '../contracts/params.js';
import { configStatuses, ItemView } from '../item-view.js';
import { bindRoutes } from './bind-routes.js';
import { claimItem } from './claim-item.js';
import { myReviews } from './my-reviews.js';
import { reviewItem } from './review-item.js';
import { keepLease, releaseLease, skipItem } from './review-leases.js';
import { ReviewActionReply } from './reviews.js';
import { submitVerdict } from './submit-verdict.js';

// A reviewer's work in a queue (docs/api.md#working-through-a-queue): claim the next item (a
// lease the server enforces), read it, keep the lease with heartbeats, give it back (release:
// at its place; skip: to the end), or submit a verdict through the review path.

const ItemParams = z.object({ queueId: Id, itemId: Id });

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

const tags = ['review work'];
const reviewer = ['reviewer'] as const;

export const reviewWorkRoutes = defineRoutes({
  claim: {
    method: 'POST',
    path: '/v1/review-queues/:queueId/claim',
    allow: reviewer,
    tags,
    summary: 'Lease the next item the caller may review, or null when there is none',
    description:
      'An expired lease is handed out first, then the free item nearest the front. Never an ' +
      'item the caller holds or reviewed already; an item needing several verdicts goes to ' +
      'that many different reviewers. The lease lasts the queue’s `leaseSeconds` unless kept ' +
      'with heartbeats.',
    params: QueueParams,
    answers: { 200: ClaimReply },
  },
  reviewItem: {
    method: 'GET',
    path: '/v1/review-queues/:queueId/items/:itemId',
    allow: ['reviewer', 'system', 'admin'],
    tags,
    summary: 'An item as the reviewer’s page shows it: the target, its context and the form',
    description:
      'A reviewer reads an item they lease or reviewed. Everything in it is written by agents ' +
      'and people: render it as text. `otherReviews` is empty while the queue is blind and the ' +
      'caller has not given their verdict.',
    params: ItemParams,
    answers: { 200: ItemView },
  },
  heartbeat: {
    method: 'POST',
    path: '/v1/review-queues/:queueId/items/:itemId/heartbeat',
    allow: reviewer,
    tags,
    summary: 'Keep the caller’s lease on an item: it lasts leaseSeconds from now',
    params: ItemParams,
    answers: { 200: LeaseReply },
  },
  release: {
    method: 'POST',
    path: '/v1/review-queues/:queueId/items/:itemId/release',
    allow: reviewer,
    tags,
    summary: 'Give the caller’s lease back: the item returns to its place in the queue',
    params: ItemParams,
    answers: { 200: ReleaseReply },
  },
  skip: {
    method: 'POST',
    path: '/v1/review-queues/:queueId/items/:itemId/skip',
    allow: reviewer,
    tags,
    summary: 'Skip an item: the caller’s lease ends and the item goes to the end of the queue',
    params: ItemParams,
    answers: { 200: SkipReply },
  },
  submitItem: {
    method: 'POST',
    path: '/v1/review-queues/:queueId/items/:itemId/submit',
    allow: reviewer,
    tags,
    summary: 'Give the caller’s verdict on a leased item, through the review path',
    description:
      'The verdict is the queue’s HUMAN feedback type, validated against its score config ' +
      '(`configId`, the type’s config: without it the answer is 400), and recorded by the ' +
      'target’s review workflow as `POST /v1/reviews` records a submit. A retry records once. ' +
      'The answer carries the other reviewers’ verdicts on the target (`otherReviews`), ' +
      'which a blind queue shows only now. Revise or withdraw it later with `POST /v1/reviews`.',
    params: ItemParams,
    body: SubmitBody,
    answers: { 200: SubmitReply },
  },
  myReviews: {
    method: 'GET',
    path: '/v1/review-queues/:queueId/my-reviews',
    allow: reviewer,
    tags,
    summary: 'The caller’s verdicts in this queue, latest first, to revise or withdraw',
    params: QueueParams,
    query: MyReviewsQuery,
    answers: { 200: MyReviewsReply },
  },
});

// A verdict goes through the review path (the target's review workflow, HUMAN against its score
// config) with a request id derived from (queue, item, reviewer), so a retried submit records
// once; only once it is recorded is the slot marked done. Each operation's handler is a function
// in a file named after it.

export { requestIdOf } from './submit-verdict.js';

export const registerReviewWork = bindRoutes(reviewWorkRoutes, (deps) => {
  const reviews = new ReviewClient(deps.temporal.client, deps.store, deps.temporal.taskQueue);
  const statuses = configStatuses(deps.scoreConfigs);
  return {
    claim: ({ params, request }) => claimItem(deps, request, params.queueId),
    reviewItem: ({ params, request }) => reviewItem(deps, statuses, request, params),
    heartbeat: ({ params, request }) => keepLease(deps, request, params),
    release: ({ params, request }) => releaseLease(deps, request, params),
    skip: ({ params, request }) => skipItem(deps, request, params),
    submitItem: ({ params, body, request }) => submitVerdict(deps, reviews, request, params, body),
    myReviews: ({ params, query, request }) =>
      myReviews(deps, request, params.queueId, query.limit),
  };
});

import type {
  ClaimResult,
  MyReviews,
  ReviewItemView,
  ReviewQueueWithProgress,
} from '../client/index.js';

// The review queues' answers as the page reads them: the HTTP SDK's types, named for the page.

export type QueueSummary = ReviewQueueWithProgress;
export type ItemView = ReviewItemView;
export type ClaimedItem = NonNullable<ClaimResult['item']>;
export type WireTarget = ItemView['item']['target'];
export type Feedback = ItemView['ratings'][number];
export type MyReview = MyReviews['reviews'][number];

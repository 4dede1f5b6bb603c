import type {
  ApiScoreConfig,
  ClaimResult,
  MyReviews,
  ReviewItemView,
  ReviewQueueWithProgress,
  SubmitReviewItemResult,
} from '../client/index.js';

// The review queues' answers as the page reads them (the HTTP SDK's types, named for the page),
// and what the reviewer's own verdicts page asks of the API.

export type QueueSummary = ReviewQueueWithProgress;
export type ItemView = ReviewItemView;
export type ClaimedItem = NonNullable<ClaimResult['item']>;
export type WireTarget = ItemView['item']['target'];
export type Feedback = ItemView['ratings'][number];
export type MyReview = MyReviews['reviews'][number];
/** What a submit's answer brings the page: the others' verdicts, revealed once it is recorded. */
export type SubmitAnswer = Pick<SubmitReviewItemResult, 'otherReviews'>;

/** A queue's verdicts by the caller, with what revising them needs. */
export interface MyQueueReviews {
  feedbackType: string;
  configId: string;
  reviews: MyReview[];
}

/** What the reviewer's own verdicts page asks of the API. */
export interface MyReviewsApi {
  myReviews(queueId: string): Promise<MyQueueReviews>;
  scoreConfigs(): Promise<ApiScoreConfig[]>;
  revise(mine: MyQueueReviews, review: MyReview, value: Record<string, unknown>): Promise<unknown>;
  withdraw(mine: MyQueueReviews, review: MyReview): Promise<unknown>;
}

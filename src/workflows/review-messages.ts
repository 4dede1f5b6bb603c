// The messages of `review`, one workflow per reviewed target that serializes reviewers' actions.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { ReviewOutcome } from '../activities/types.js';
import { targetKey } from '../core/keys.js';
import type { Target } from '../core/targets.js';

export interface ReviewInput {
  workspaceId: string;
  target: Target;
  /** Idle this long, the workflow completes; the next action starts it again (one day). */
  idleMs?: number;
  carried?: ReviewState;
}

/** A verified reviewer, as the client or API authenticated it; never read from a request body. */
export interface VerifiedReviewer {
  id: string;
  name?: string;
}

/** What a reviewer asks for: the value is theirs, their identity is the caller's. */
export interface ReviewRequest {
  reviewer: VerifiedReviewer;
  feedback_type: string;
  value?: Record<string, unknown>;
}

export interface ReviewState {
  /** Actions applied, in the order accepted. */
  applied: number;
}

/** The stored result, and the action's place in the order the target's actions were applied. */
export type ReviewResult = ReviewOutcome & { position: number };

export const submitReviewUpdate = defineUpdate<ReviewResult, [ReviewRequest]>('submitReview');
export const reviseReviewUpdate = defineUpdate<ReviewResult, [ReviewRequest]>('reviseReview');
export const withdrawReviewUpdate = defineUpdate<ReviewResult, [ReviewRequest]>('withdrawReview');
export const reviewStateQuery = defineQuery<ReviewState>('reviewState');

export const DEFAULT_REVIEW_IDLE_MS = 24 * 60 * 60 * 1000;

/** One workflow per reviewed target, workspace and store (`Store.id`). */
export const reviewWorkflowId = (storeId: string, workspaceId: string, target: Target) =>
  `review:${storeId}:${workspaceId}:${targetKey(target)}`;

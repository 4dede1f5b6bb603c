import { type Client, WithStartWorkflowOperation } from '@temporalio/client';
import type { Target } from '../core/index.js';
import type { StoreIdentity } from '../store/index.js';
import type { review } from '../workflows/review.js';
import {
  type ReviewRequest,
  type ReviewResult,
  reviewWorkflowId,
  reviseReviewUpdate,
  submitReviewUpdate,
  type VerifiedReviewer,
  withdrawReviewUpdate,
} from '../workflows/review-messages.js';

/** What a reviewer sends: the value only. Who sends it is the verified caller's business. */
export interface ReviewBody {
  feedback_type: string;
  value?: Record<string, unknown>;
  /** Deduplicates a retried request (Temporal's update id). */
  request_id?: string;
}

/**
 * Sends reviewers' actions to the target's `review` workflow with update-with-start: the first
 * action starts it, later ones join it, and each returns the stored result. The reviewer is the
 * caller the host authenticated; a body that tries to name one is refused.
 */
export class ReviewClient {
  constructor(
    private readonly client: Client,
    /** The store the reviews are recorded in (its id scopes the workflow ids). */
    private readonly store: StoreIdentity,
    private readonly taskQueue: string,
    /** How long a target's review workflow waits idle before completing (one day). */
    private readonly idleMs?: number,
  ) {}

  submit(workspaceId: string, target: Target, caller: VerifiedReviewer, body: ReviewBody) {
    return this.send(submitReviewUpdate, workspaceId, target, caller, body);
  }
  revise(workspaceId: string, target: Target, caller: VerifiedReviewer, body: ReviewBody) {
    return this.send(reviseReviewUpdate, workspaceId, target, caller, body);
  }
  withdraw(workspaceId: string, target: Target, caller: VerifiedReviewer, body: ReviewBody) {
    return this.send(withdrawReviewUpdate, workspaceId, target, caller, body);
  }

  private async send(
    update: typeof submitReviewUpdate,
    workspaceId: string,
    target: Target,
    caller: VerifiedReviewer,
    body: ReviewBody,
  ): Promise<ReviewResult> {
    if ('reviewer' in body || 'actor' in body) {
      throw new TypeError(
        'a review body does not name its reviewer: the verified caller is the reviewer',
      );
    }
    const request: ReviewRequest = {
      reviewer: { id: caller.id, ...(caller.name ? { name: caller.name } : {}) },
      feedback_type: body.feedback_type,
      ...(body.value !== undefined ? { value: body.value } : {}),
    };
    const startWorkflowOperation = new WithStartWorkflowOperation<typeof review>('review', {
      workflowId: reviewWorkflowId(this.store.id, workspaceId, target),
      taskQueue: this.taskQueue,
      args: [{ workspaceId, target, ...(this.idleMs ? { idleMs: this.idleMs } : {}) }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return this.client.workflow.executeUpdateWithStart(update, {
      args: [request],
      startWorkflowOperation,
      ...(body.request_id ? { updateId: body.request_id } : {}),
    });
  }
}

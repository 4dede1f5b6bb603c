import { type Client, WithStartWorkflowOperation } from '@temporalio/client';
import { type Limits, resolveLimits, type Target } from '../core/index.js';
import type { StoreIdentity } from '../store/index.js';
import type { review } from '../workflows/review.js';
import {
  type ReviewResult,
  reviewWorkflowId,
  reviseReviewUpdate,
  submitReviewUpdate,
  type VerifiedReviewer,
  withdrawReviewUpdate,
} from '../workflows/review-messages.js';
import { checkReview, type ReviewBody, type ReviewKind } from './review-requests.js';

export type { ReviewBody } from './review-requests.js';

export interface ReviewClientOptions {
  /** How long a target's review workflow waits idle before completing (one day). */
  idleMs?: number;
  /**
   * Size limits, as the store is given them (docs/limits.md): a review's value is held to
   * `feedbackValueBytes` here, before it becomes a Temporal payload.
   */
  limits?: Partial<Limits>;
}

const updates = {
  submit: submitReviewUpdate,
  revise: reviseReviewUpdate,
  withdraw: withdrawReviewUpdate,
} as const;

/**
 * Sends reviewers' actions to the target's `review` workflow with update-with-start: the first
 * action starts it, later ones join it, and each returns the stored result. The reviewer is the
 * caller the host authenticated; a body that tries to name one is refused. Every action is
 * checked whole first (`checkReview`), so a malformed one throws `InvalidRequestError` and
 * starts no workflow.
 */
export class ReviewClient {
  private readonly limits: Readonly<Limits>;

  /** @throws InvalidLimitsError for an unknown or non-positive limit. */
  constructor(
    private readonly client: Client,
    /** The store the reviews are recorded in (its id scopes the workflow ids). */
    private readonly store: StoreIdentity,
    private readonly taskQueue: string,
    private readonly options: ReviewClientOptions = {},
  ) {
    this.limits = resolveLimits(options.limits);
  }

  submit(workspaceId: string, target: Target, caller: VerifiedReviewer, body: ReviewBody) {
    return this.send('submit', workspaceId, target, caller, body);
  }
  revise(workspaceId: string, target: Target, caller: VerifiedReviewer, body: ReviewBody) {
    return this.send('revise', workspaceId, target, caller, body);
  }
  withdraw(workspaceId: string, target: Target, caller: VerifiedReviewer, body: ReviewBody) {
    return this.send('withdraw', workspaceId, target, caller, body);
  }

  private async send(
    kind: ReviewKind,
    workspaceId: string,
    target: Target,
    caller: VerifiedReviewer,
    body: ReviewBody,
  ): Promise<ReviewResult> {
    const checked = checkReview(kind, workspaceId, target, caller, body, this.limits);
    const { idleMs } = this.options;
    const startWorkflowOperation = new WithStartWorkflowOperation<typeof review>('review', {
      workflowId: reviewWorkflowId(this.store.id, workspaceId, checked.target),
      taskQueue: this.taskQueue,
      args: [{ workspaceId, target: checked.target, ...(idleMs ? { idleMs } : {}) }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    return this.client.workflow.executeUpdateWithStart(updates[kind], {
      args: [checked.request],
      startWorkflowOperation,
      ...(checked.requestId ? { updateId: checked.requestId } : {}),
    });
  }
}

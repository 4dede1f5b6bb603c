import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  currentUpdateInfo,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { EvalflowActivities, ReviewAction } from '../activities/types.js';
import { HEARTBEAT_TIMEOUT, RETRY_SOON_THEN_BACK_OFF } from './activity-timing.js';
import {
  DEFAULT_REVIEW_IDLE_MS,
  type ReviewInput,
  type ReviewRequest,
  type ReviewState,
  reviewStateQuery,
  reviseReviewUpdate,
  submitReviewUpdate,
  withdrawReviewUpdate,
} from './review-messages.js';

const { applyReview } = proxyActivities<Pick<EvalflowActivities, 'applyReview'>>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...RETRY_SOON_THEN_BACK_OFF, maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * One per target: reviewers' submit, revise and withdraw updates are applied to the store one at
 * a time, in the order Temporal accepted them, and each caller gets the stored result back.
 */
export async function review(input: ReviewInput): Promise<ReviewState> {
  const state: ReviewState = input.carried ?? { applied: 0 };
  let issued = 0;
  let serving = 0;

  const handler = (kind: ReviewAction) => async (request: ReviewRequest) => {
    const ticket = issued++;
    await condition(() => serving === ticket);
    try {
      const outcome = await applyReview({
        workspaceId: input.workspaceId,
        target: input.target,
        kind,
        reviewer: request.reviewer,
        feedback_type: request.feedback_type,
        value: request.value ?? null,
        // The update id names the store command, so a retried update records once.
        requestId: `${workflowInfo().workflowId}|${currentUpdateInfo()?.id ?? ticket}`,
      });
      return { ...outcome, position: state.applied };
    } finally {
      serving += 1;
      state.applied += 1;
    }
  };
  for (const [update, kind] of [
    [submitReviewUpdate, 'submit'],
    [reviseReviewUpdate, 'revise'],
    [withdrawReviewUpdate, 'withdraw'],
  ] as const) {
    setHandler(update, handler(kind), { validator: (request) => validate(kind, request) });
  }
  setHandler(reviewStateQuery, () => state);

  const idle = () => issued === serving && allHandlersFinished();
  for (;;) {
    const busy = await condition(
      () => !idle() || workflowInfo().continueAsNewSuggested,
      input.idleMs ?? DEFAULT_REVIEW_IDLE_MS,
    );
    if (!busy && idle()) return state;
    await condition(idle);
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof review>({ ...input, carried: state });
    }
  }
}

/** Refuses a malformed request before it enters history. */
function validate(kind: ReviewAction, request: ReviewRequest): void {
  if (typeof request?.reviewer?.id !== 'string' || request.reviewer.id === '') {
    throw ApplicationFailure.nonRetryable('a review needs a verified reviewer', 'InvalidReview');
  }
  if (typeof request.feedback_type !== 'string' || request.feedback_type === '') {
    throw ApplicationFailure.nonRetryable('a review names its feedback type', 'InvalidReview');
  }
  const hasValue =
    typeof request.value === 'object' && request.value !== null && !Array.isArray(request.value);
  if (kind !== 'withdraw' && !hasValue) {
    throw ApplicationFailure.nonRetryable(`a ${kind} carries a value object`, 'InvalidReview');
  }
}

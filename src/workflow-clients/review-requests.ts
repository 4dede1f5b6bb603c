import {
  idProblem,
  jsonBytes,
  jsonProblem,
  type Limits,
  overLimit,
  ReviewerActor,
  summaryOf,
  Target,
} from '../core/index.js';
import type { ReviewRequest, VerifiedReviewer } from '../workflows/review-messages.js';
import { InvalidRequestError } from './errors.js';

/** What a reviewer sends: the value only. Who sends it is the verified caller's business. */
export interface ReviewBody {
  feedback_type: string;
  value?: Record<string, unknown>;
  /** Deduplicates a retried request (Temporal's update id). */
  request_id?: string;
}

export type ReviewKind = 'submit' | 'revise' | 'withdraw';

export interface CheckedReview {
  target: Target;
  request: ReviewRequest;
  requestId: string | undefined;
}

/**
 * The whole action checked before anything reaches Temporal, with the rules the store applies:
 * the workspace, the reviewer and the feedback type by the id rule, the target by the core's
 * schema, the value as a JSON object within the feedback value limit. A refused action would
 * otherwise start a workflow (and fail inside it, or under a misleading name).
 *
 * @throws InvalidRequestError naming what is wrong.
 */
export function checkReview(
  kind: ReviewKind,
  workspaceId: unknown,
  target: unknown,
  caller: VerifiedReviewer,
  body: ReviewBody,
  limits: Readonly<Limits>,
): CheckedReview {
  const badWorkspace = idProblem(workspaceId);
  if (badWorkspace !== null)
    throw new InvalidRequestError(`a review's workspace id is invalid: ${badWorkspace}`);

  const parsedTarget = Target.safeParse(target);
  if (!parsedTarget.success) {
    throw new InvalidRequestError(`a review's target is invalid: ${summaryOf(parsedTarget.error)}`);
  }

  const reviewer = ReviewerActor.safeParse({
    kind: 'reviewer',
    id: caller?.id,
    ...(caller?.name ? { name: caller.name } : {}),
  });
  if (!reviewer.success)
    throw new InvalidRequestError(
      `a review's verified reviewer is invalid: ${summaryOf(reviewer.error)}`,
    );

  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError(
      'a review body is an object: { feedback_type, value?, request_id? }',
    );
  }
  if ('reviewer' in body || 'actor' in body) {
    throw new InvalidRequestError(
      'a review body does not name its reviewer: the verified caller is the reviewer',
    );
  }
  const badType = idProblem(body.feedback_type);
  if (badType !== null)
    throw new InvalidRequestError(`a review's feedback_type is invalid: ${badType}`);
  const badRequestId = body.request_id === undefined ? null : idProblem(body.request_id);
  if (badRequestId !== null)
    throw new InvalidRequestError(`a review's request_id is invalid: ${badRequestId}`);

  if (kind !== 'withdraw') {
    const { value } = body;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InvalidRequestError(`a ${kind} carries a value object`);
    }
    const notJson = jsonProblem(value);
    if (notJson !== null) throw new InvalidRequestError(`a review's value is not JSON: ${notJson}`);
    const oversized = overLimit('value', jsonBytes(value), 'feedbackValueBytes', limits);
    if (oversized !== null) throw new InvalidRequestError(`a review's ${oversized.message}`);
  }

  const { id, name } = reviewer.data;
  return {
    target: parsedTarget.data,
    request: {
      reviewer: { id, ...(name ? { name } : {}) },
      feedback_type: body.feedback_type,
      ...(kind !== 'withdraw' && body.value !== undefined ? { value: body.value } : {}),
    },
    requestId: body.request_id,
  };
}

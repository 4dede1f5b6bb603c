import { z } from 'zod';
import {
  type FeedbackType,
  notFound,
  participantOf,
  type Target,
  targetKey,
} from '../../core/index.js';
import { targetOf, WireTarget } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { ReviewClient } from '../../workflow-clients/index.js';
import { defineRoutes } from '../contracts/contract.js';
import { HTTP_STATUS, HttpRefusal, httpOnly, refuse } from '../errors.js';
import { queuesOf } from '../queues-in-force.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, type RouteDeps } from './context.js';

// Reviewers' actions (docs/specification.md#reviews): serialized per target by the target's
// review workflow, each answered with the stored outcome and its place in the target's order. A
// recorded verdict counts toward its target's item in the queues of its type, as a claim's submit
// does (docs/specification.md#review-queues).

export const ReviewActionBody = z.strictObject({
  action: z.enum(['submit', 'revise', 'withdraw']),
  target: WireTarget,
  feedbackType: z.string().min(1),
  value: z.record(z.string(), z.unknown()).optional(),
  configId: z.string().min(1).optional(),
});
export const ReviewActionReply = z.object({
  type: z.literal('recorded'),
  seq: z.int(),
  envelopeId: z.string().nullable(),
  isUpdate: z.boolean(),
  removed: z.boolean().optional(),
  position: z.int(),
});

export const reviewRoutes = defineRoutes({
  review: {
    method: 'POST',
    path: '/v1/reviews',
    allow: ['reviewer'],
    tags: ['reviews'],
    summary: 'Submit, revise or withdraw the caller’s review of a target',
    description:
      'Reviewers give SCORE_SOURCE_HUMAN feedback, so a submit or revise names the score ' +
      'config it is validated against (`configId`, the feedback type’s config); without it the ' +
      'answer is 400.',
    body: ReviewActionBody,
    answers: { 200: ReviewActionReply },
  },
});

export const registerReviews = bindRoutes(reviewRoutes, (deps) => {
  const reviews = new ReviewClient(deps.temporal.client, deps.store, deps.temporal.taskQueue);
  return {
    review: async ({ body, request }) => {
      const { action, target, feedbackType, value, configId } = body;
      const caller = callerOf(request);
      const type = deps.app.feedbackTypes.get(feedbackType);
      if (type === undefined) {
        throw refuse(notFound('feedback type', feedbackType));
      }
      if (action !== 'withdraw') checkHumanConfig(type, configId);
      const principal = caller.principal;
      if (principal.kind !== 'reviewer') throw new Error('unreachable: reviews are reviewers’');
      const core = targetOf(target);
      const result = await reviews[action](
        caller.workspaceId,
        core,
        { id: principal.id },
        {
          feedback_type: feedbackType,
          ...(value !== undefined ? { value } : {}),
          ...(request.commandId ? { request_id: request.commandId } : {}),
        },
      );
      if (result.type !== 'recorded') {
        throw new HttpRefusal(HTTP_STATUS[result.type], {
          type: result.type,
          message: result.message,
        });
      }
      if (action !== 'withdraw') {
        const reviewer = participantOf(actorOf(principal));
        await countInQueues(deps, caller.workspaceId, core, reviewer, type.name);
      }
      return {
        type: 'recorded' as const,
        seq: result.seq,
        envelopeId: result.envelope_id,
        isUpdate: result.is_update,
        ...(result.removed !== undefined ? { removed: result.removed } : {}),
        position: result.position,
      };
    },
  };
});

/** A reviewer's verdict names its type's score config: missing is a 400, another config a 422. */
export function checkHumanConfig(type: FeedbackType, configId: string | undefined): void {
  if (configId === undefined) {
    throw httpOnly(
      'bad_request',
      'SCORE_SOURCE_HUMAN feedback needs the configId of its score config',
    );
  }
  if (configId !== type.configName) {
    throw refuse({
      type: 'validation_failed',
      message: `${type.name} feedback is validated against score config ${type.configName ?? '(none)'}, not ${configId}`,
      errors: [],
    });
  }
}

/**
 * A reviewer's recorded verdict counts toward its target's item in every queue of its type: it
 * fills a slot, or closes the item (the log's follower counts it too, should this stop first).
 */
async function countInQueues(
  deps: RouteDeps,
  workspaceId: string,
  target: Target,
  reviewer: string,
  feedbackType: string,
): Promise<void> {
  const queues = await queuesOf(deps.store, deps.app, workspaceId);
  const queue_ids = queues.filter((q) => q.feedback_type === feedbackType).map((q) => q.queue_id);
  if (queue_ids.length === 0) return;
  await deps.store.reviewQueues.settle({
    workspace_id: workspaceId,
    queue_ids,
    feedback_type: feedbackType,
    target_key: targetKey(target),
    reviewer,
    now: deps.now(),
  });
}

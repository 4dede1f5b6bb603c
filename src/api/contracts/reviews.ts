import { z } from 'zod';
import { WireTarget } from '../../wire/entities.js';
import { defineRoutes } from './contract.js';

// Reviewers' actions (docs/specification.md#reviews): serialized per target by the target's
// review workflow, each answered with the stored outcome and its place in the target's order.

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

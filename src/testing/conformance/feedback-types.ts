import { z } from 'zod';
import {
  createFeedbackTypeRegistry,
  defineFeedbackType,
  type FeedbackTypeRegistry,
} from '../../core/index.js';

/** The feedback types every case file is written against. */
export function conformanceFeedbackTypes(): FeedbackTypeRegistry {
  return createFeedbackTypeRegistry([
    defineFeedbackType({
      name: 'helpfulness',
      targets: ['turn', 'thread', 'message'],
      schema: z.object({
        rating: z.int().min(1).max(5),
        reason: z.string().nullable().default(null),
      }),
    }),
    defineFeedbackType({
      name: 'accuracy',
      targets: ['artifact'],
      schema: z.object({
        correct: z.boolean(),
        verdict: z.enum(['right', 'wrong']).default('right'),
        tone: z.enum(['formal', 'casual']).default('formal'),
        confidence: z.number().min(0).max(1).default(1.0),
      }),
    }),
    // A reviewers' type, for the HUMAN source rules: its config is named by `given.score_configs`.
    defineFeedbackType({
      name: 'review',
      targets: ['artifact', 'turn', 'message'],
      source: 'HUMAN',
      configName: 'review',
      schema: z.object({ approved: z.boolean(), note: z.string().nullable().default(null) }),
    }),
    // A second reviewers' type: a reviewer's feedback is their own per type and target.
    defineFeedbackType({
      name: 'escalation',
      targets: ['thread', 'turn'],
      source: 'HUMAN',
      configName: 'escalation',
      schema: z.object({ needed: z.boolean() }),
    }),
  ]);
}

import { z } from 'zod';
import { SourceName, Written } from '../../wire/entities.js';
import { defineRoutes } from './contract.js';

// docs/specification.md#score-writes: numbers and booleans on traces, from a harness
// (SCORE_SOURCE_HARNESS) or a reviewer (SCORE_SOURCE_HUMAN, with the configId of its score
// config).

export const RecordScoreBody = z.strictObject({
  traceId: z.string().min(1),
  name: z.string().min(1),
  value: z.union([z.number(), z.boolean(), z.string()]),
  source: SourceName,
  configId: z.string().min(1).optional(),
  sourceLabel: z.string().min(1).optional(),
  comment: z.string().optional(),
  observationId: z.string().optional(),
  sessionId: z.string().optional(),
  datasetRunId: z.string().optional(),
});
export const RecordScoreReply = Written.extend({ scoreName: z.string() });

export const scoreRoutes = defineRoutes({
  recordScore: {
    method: 'POST',
    path: '/v1/scores',
    allow: ['system', 'agent', 'reviewer'],
    tags: ['scores'],
    summary: 'Write a numeric or boolean score on a trace, as the key’s principal',
    description:
      'The rater is the key’s principal; the score id derives from the trace, the rater and ' +
      'the name, so writing the same score again (on any day) replaces it rather than adding ' +
      'a record. Categorical or text values, observation, session or dataset-run targets and ' +
      'sources other than SCORE_SOURCE_HARNESS and SCORE_SOURCE_HUMAN are a 400.',
    body: RecordScoreBody,
    answers: { 201: RecordScoreReply },
  },
});

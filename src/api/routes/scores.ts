import { z } from 'zod';
import { notFound } from '../../core/index.js';
import { SourceName, sourceName, Written, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { defineRoutes } from '../contracts/contract.js';
import { httpOnly, refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

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

// The vocabulary names more (categories, text, sessions, observations, dataset runs, other
// sources); on this path those are a 400, not supported.

const SUPPORTED: readonly string[] = [sourceName('HARNESS'), sourceName('HUMAN')];

export const registerScores = bindRoutes(scoreRoutes, {
  recordScore: async ({ body, request, deps }) => {
    const { traceId, name, value, source, configId, sourceLabel, comment } = body;
    const unsupported = (['observationId', 'sessionId', 'datasetRunId'] as const).find(
      (field) => body[field] !== undefined,
    );
    if (unsupported) {
      throw httpOnly(
        'bad_request',
        `${unsupported} targets are not supported on this path: scores go on traces`,
      );
    }
    if (typeof value === 'string') {
      throw httpOnly(
        'bad_request',
        'categorical and text values are not supported on this path: send a number or a boolean',
      );
    }
    if (!SUPPORTED.includes(source)) {
      throw httpOnly(
        'bad_request',
        `${source} is not supported on this path: use ${SUPPORTED.join(' or ')}`,
      );
    }
    const human = source === sourceName('HUMAN');
    if (human) {
      if (configId === undefined) {
        throw httpOnly(
          'bad_request',
          'SCORE_SOURCE_HUMAN scores need the configId of their score config',
        );
      }
      const status = (await deps.scoreConfigs.statuses()).get(configId);
      if (status === undefined) {
        throw refuse(notFound('score config', configId));
      }
      if (status.archived)
        throw refuse({ type: 'invalid_state', message: `score config ${configId} is archived` });
      if (configId !== name) {
        throw refuse({
          type: 'validation_failed',
          message: `a score is validated against the config of its name: name it ${configId}`,
          errors: [],
        });
      }
    }
    const outcome = await execute(deps, request, actorOf(callerOf(request).principal), {
      type: 'record_score',
      trace_id: traceId,
      name,
      value,
      source: human ? 'HUMAN' : 'HARNESS',
      ...(configId ? { config_id: configId } : {}),
      ...(sourceLabel ? { source_label: sourceLabel } : {}),
      ...(comment !== undefined ? { comment } : {}),
    });
    return { scoreName: name, ...written(outcome.events) };
  },
});

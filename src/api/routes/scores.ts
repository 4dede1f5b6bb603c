import { notFound } from '../../core/index.js';
import { sourceName, written } from '../../wire/entities.js';
import { actorOf } from '../../wire/principals.js';
import { scoreRoutes } from '../contracts/scores.js';
import { httpOnly, refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf, execute } from './context.js';

// Scores on traces (contracts/scores.ts). The vocabulary names more (categories, text, sessions,
// observations, dataset runs, other sources); on this path those are a 400, not supported.

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

import { z } from 'zod';
import { notFound } from '../../core/index.js';
import { SCORE_DATA_TYPES, type ScoreConfig, ScoreConfigExistsError } from '../../scores/index.js';
import { WireConfig, wireConfig } from '../../wire/score-configs.js';
import { defineRoutes } from '../contracts/contract.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import type { RouteDeps } from './context.js';

// The sink's score configs (docs/specification.md#score-configs): created, listed (archived ones
// on request) and retired with isArchived. A config is named by its `configId`, which is its
// name: `{type}.{field}` for a field's config, or a HUMAN type's config name for all of that
// type's field configs at once.

export const ListScoreConfigsQuery = z.object({
  includeArchived: z.stringbool().default(false),
});
export const ScoreConfigsReply = z.object({ configs: z.array(WireConfig) });
export const CreateScoreConfigBody = z.strictObject({
  name: z.string().min(1),
  dataType: z.enum(SCORE_DATA_TYPES),
  minValue: z.number().optional(),
  maxValue: z.number().optional(),
  categories: z.array(z.string().min(1)).optional(),
  description: z.string().optional(),
});
export const ArchiveScoreConfigBody = z.strictObject({ isArchived: z.literal(true) });

const tags = ['score configs'];

export const scoreConfigRoutes = defineRoutes({
  scoreConfigs: {
    method: 'GET',
    path: '/v1/score-configs',
    allow: ['system', 'admin', 'reviewer', 'agent'],
    tags,
    summary: 'The score configs, active ones unless includeArchived',
    query: ListScoreConfigsQuery,
    answers: { 200: ScoreConfigsReply },
  },
  createScoreConfig: {
    method: 'POST',
    path: '/v1/score-configs',
    allow: ['admin'],
    tags,
    summary: 'Create a score config; a name that exists is a conflict (configs are never updated)',
    body: CreateScoreConfigBody,
    answers: { 201: WireConfig },
  },
  archiveScoreConfig: {
    method: 'PATCH',
    path: '/v1/score-configs/:configId',
    allow: ['admin'],
    tags,
    summary: 'Retire a score config (isArchived: true); an archived config is never restored',
    params: z.object({ configId: z.string().min(1) }),
    body: ArchiveScoreConfigBody,
    answers: { 200: ScoreConfigsReply },
  },
});

const known = (deps: RouteDeps) =>
  new Map(deps.app.scoreConfigSync.configs.map((c) => [c.name, c]));

export const registerScoreConfigs = bindRoutes(scoreConfigRoutes, {
  scoreConfigs: async ({ query, deps }) => {
    const statuses = await deps.scoreConfigs.statuses();
    const configs = known(deps);
    return {
      configs: [...statuses]
        .filter(([, status]) => query.includeArchived || !status.archived)
        .map(([name, status]) => wireConfig(name, status.archived, configs.get(name))),
    };
  },

  createScoreConfig: async ({ body, deps }) => {
    const { name, dataType, minValue, maxValue, categories, description } = body;
    const [typeName, ...field] = name.split('.');
    const config: ScoreConfig = {
      name,
      typeName: typeName ?? name,
      field: field.join('.') || name,
      dataType,
      description: description ?? null,
      minimum: minValue ?? null,
      maximum: maxValue ?? null,
      categories: categories ?? [],
    };
    try {
      deps.scoreConfigs.check?.(config);
    } catch (error) {
      throw refuse({ type: 'validation_failed', message: (error as Error).message, errors: [] });
    }
    if ((await deps.scoreConfigs.statuses()).has(name)) {
      throw refuse({ type: 'conflict', message: `score config ${name} exists already` });
    }
    try {
      await deps.scoreConfigs.create(config);
    } catch (error) {
      if (error instanceof ScoreConfigExistsError) {
        throw refuse({ type: 'conflict', message: `score config ${name} exists already` });
      }
      throw error;
    }
    return wireConfig(name, false, config);
  },

  archiveScoreConfig: async ({ params: { configId }, deps }) => {
    const fields = deps.app.scoreConfigFields(configId);
    const names = fields.length > 0 ? fields : [configId];
    const statuses = await deps.scoreConfigs.statuses();
    if (names.some((name) => !statuses.has(name))) {
      throw refuse(notFound('score config', configId));
    }
    for (const name of names) await deps.scoreConfigs.archive(name);
    deps.onScoreConfigsChanged?.();
    const configs = known(deps);
    return { configs: names.map((name) => wireConfig(name, true, configs.get(name))) };
  },
});

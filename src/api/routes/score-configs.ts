import { z } from 'zod';
import { notFound } from '../../core/index.js';
import { SCORE_DATA_TYPES, type ScoreConfig, ScoreConfigExistsError } from '../../scores/index.js';
import { refusalResponses, refuse } from '../errors.js';
import type { Register } from './context.js';

// The sink's score configs (docs/specification.md#score-configs): created, listed (archived ones
// on request) and retired with isArchived. A config is named by its `configId`, which is its
// name: `{type}.{field}` for a
// field's config, or a HUMAN type's config name for all of that type's field configs at once.

export const WireConfig = z.object({
  configId: z.string(),
  name: z.string(),
  isArchived: z.boolean(),
  dataType: z.enum(SCORE_DATA_TYPES).nullable(),
  minValue: z.number().nullable(),
  maxValue: z.number().nullable(),
  categories: z.array(z.string()),
  description: z.string().nullable(),
});

// Each route's query, body and answer, named so that the HTTP client's types are these very schemas.
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

/** A config as the routes answer it; `config` is the app's own, when it knows the name. */
export const wireConfig = (name: string, archived: boolean, config?: ScoreConfig) => ({
  configId: name,
  name,
  isArchived: archived,
  dataType: config?.dataType ?? null,
  minValue: config?.minimum ?? null,
  maxValue: config?.maximum ?? null,
  categories: [...(config?.categories ?? [])],
  description: config?.description ?? null,
});

export const registerScoreConfigs: Register = (api, deps) => {
  const known = () => new Map(deps.app.scoreConfigSync.configs.map((c) => [c.name, c]));
  const wire = wireConfig;

  api.get('/v1/score-configs', {
    config: { allow: ['system', 'admin', 'reviewer', 'agent'] },
    schema: {
      tags: ['score configs'],
      summary: 'The score configs, active ones unless includeArchived',
      querystring: ListScoreConfigsQuery,
      response: { 200: ScoreConfigsReply, ...refusalResponses },
    },
    handler: async (request) => {
      const statuses = await deps.scoreConfigs.statuses();
      const configs = known();
      return {
        configs: [...statuses]
          .filter(([, status]) => request.query.includeArchived || !status.archived)
          .map(([name, status]) => wire(name, status.archived, configs.get(name))),
      };
    },
  });

  api.post('/v1/score-configs', {
    config: { allow: ['admin'] },
    schema: {
      tags: ['score configs'],
      summary:
        'Create a score config; a name that exists is a conflict (configs are never updated)',
      body: CreateScoreConfigBody,
      response: { 201: WireConfig, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { name, dataType, minValue, maxValue, categories, description } = request.body;
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
      return reply.code(201).send(wire(name, false, config));
    },
  });

  api.patch('/v1/score-configs/:configId', {
    config: { allow: ['admin'] },
    schema: {
      tags: ['score configs'],
      summary: 'Retire a score config (isArchived: true); an archived config is never restored',
      params: z.object({ configId: z.string().min(1) }),
      body: ArchiveScoreConfigBody,
      response: { 200: ScoreConfigsReply, ...refusalResponses },
    },
    handler: async (request) => {
      const { configId } = request.params;
      const fields = deps.app.scoreConfigFields(configId);
      const names = fields.length > 0 ? fields : [configId];
      const statuses = await deps.scoreConfigs.statuses();
      if (names.some((name) => !statuses.has(name))) {
        throw refuse(notFound('score config', configId));
      }
      for (const name of names) await deps.scoreConfigs.archive(name);
      deps.onScoreConfigsChanged?.();
      const configs = known();
      return { configs: names.map((name) => wire(name, true, configs.get(name))) };
    },
  });
};

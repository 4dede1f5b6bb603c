import { notFound } from '../../core/index.js';
import { type ScoreConfig, ScoreConfigExistsError } from '../../scores/index.js';
import { scoreConfigRoutes } from '../contracts/score-configs.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import type { RouteDeps } from './context.js';

// The sink's score configs (contracts/score-configs.ts): created, listed and retired.

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

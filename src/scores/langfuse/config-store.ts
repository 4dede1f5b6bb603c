import type { LangfuseClient } from '@langfuse/client';
import { ScoreMappingError } from '../errors.js';
import type { ScoreConfig, ScoreDataType } from '../model/score-config.js';
import type { ScoreConfigStore } from '../ports.js';
import { ScoreConfigNameError } from './errors.js';
import { callLangfuse, DEFAULT_TIMEOUT_SECONDS, requestOptions } from './requests.js';

type CreateRequest = Parameters<LangfuseClient['api']['scoreConfigs']['create']>[0];

const NAME_PATTERN = /^[A-Za-z0-9_ .()-]{1,35}$/;
const MAX_NAME = 35;
const PAGE_SIZE = 100;

/** A score config as Langfuse holds it. */
export interface LangfuseScoreConfig {
  readonly id: string;
  readonly name: string;
  readonly dataType: ScoreDataType;
  readonly isArchived: boolean;
  readonly createdAt: string;
  readonly minimum: number | null;
  readonly maximum: number | null;
  /** Category labels in the order of their values. */
  readonly categories: readonly string[];
  readonly description: string | null;
}

export interface LangfuseScoreConfigStoreOptions {
  /** Per request; 30 s by default. */
  readonly timeoutInSeconds?: number;
}

/**
 * Langfuse score configs as a `ScoreConfigStore`. Langfuse does not keep names unique and has no
 * delete, so create through `syncScoreConfigs`, which creates a name only when it is not listed,
 * and retire a config with `archive`.
 */
export class LangfuseScoreConfigStore implements ScoreConfigStore {
  readonly #client: LangfuseClient;
  readonly #timeout: number;

  constructor(client: LangfuseClient, options: LangfuseScoreConfigStoreOptions = {}) {
    this.#client = client;
    this.#timeout = options.timeoutInSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  }

  /** Every config's name, archived ones included (an archived name still exists), once each. */
  async names(): Promise<string[]> {
    const configs = await this.list({ includeArchived: true });
    return [...new Set(configs.map((config) => config.name))];
  }

  /** Every name, oldest first; archived once no config of that name is active. */
  async statuses(): Promise<Map<string, { archived: boolean }>> {
    const statuses = new Map<string, { archived: boolean }>();
    for (const config of await this.list({ includeArchived: true })) {
      const active = !config.isArchived || statuses.get(config.name)?.archived === false;
      statuses.set(config.name, { archived: !active });
    }
    return statuses;
  }

  /**
   * Checks the config, then creates it: categories as `[{label, value: index}]`, bounds only
   * when set, the description only when not empty.
   *
   * @throws ScoreConfigNameError or ScoreMappingError before sending, for a config Langfuse refuses.
   * @throws LangfuseRequestError when the request fails.
   */
  async create(config: ScoreConfig): Promise<void> {
    this.check(config);
    const request: CreateRequest = {
      name: config.name,
      dataType: config.dataType,
      ...(config.dataType === 'CATEGORICAL' && {
        categories: config.categories.map((label, value) => ({ label, value })),
      }),
      ...(config.minimum !== null && { minValue: config.minimum }),
      ...(config.maximum !== null && { maxValue: config.maximum }),
      ...(config.description && { description: config.description }),
    };
    await callLangfuse('POST /api/public/score-configs', () =>
      this.#client.api.scoreConfigs.create(request, requestOptions(this.#timeout)),
    );
  }

  /** Throws, sending nothing, for a config Langfuse would refuse. */
  check(config: ScoreConfig): void {
    checkConfigName(config);
    if (config.minimum !== null && config.maximum !== null && config.maximum <= config.minimum) {
      throw new ScoreMappingError(
        `score config ${config.name}: Langfuse needs a maximum above the minimum, ` +
          `got ${config.minimum} to ${config.maximum}`,
      );
    }
    if (config.dataType === 'CATEGORICAL' && config.categories.length === 0) {
      throw new ScoreMappingError(
        `score config ${config.name}: a category config needs categories`,
      );
    }
  }

  /** Every config, oldest first; archived ones only when asked. */
  async list({ includeArchived = false } = {}): Promise<LangfuseScoreConfig[]> {
    const configs: LangfuseScoreConfig[] = [];
    for (let page = 1; ; page++) {
      const response = await callLangfuse('GET /api/public/score-configs', () =>
        this.#client.api.scoreConfigs.get(
          { page, limit: PAGE_SIZE },
          requestOptions(this.#timeout),
        ),
      );
      for (const config of response.data) {
        configs.push({
          id: config.id,
          name: config.name,
          dataType: config.dataType,
          isArchived: config.isArchived,
          createdAt: config.createdAt,
          minimum: config.minValue ?? null,
          maximum: config.maxValue ?? null,
          categories: [...(config.categories ?? [])]
            .sort((a, b) => a.value - b.value)
            .map((category) => category.label),
          description: config.description ?? null,
        });
      }
      if (response.data.length === 0 || page >= response.meta.totalPages) break;
    }
    configs.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    return includeArchived ? configs : configs.filter((config) => !config.isArchived);
  }

  /**
   * Archives every active config with this name, so scores sent with it are dropped and it
   * leaves the annotation UI. Archived configs stay listed by `names()`.
   *
   * @returns how many configs were archived; 0 when none was active.
   * @throws LangfuseRequestError when a request fails; the configs archived before it stay so.
   */
  async archive(name: string): Promise<number> {
    const active = (await this.list()).filter((config) => config.name === name);
    for (const config of active) {
      await callLangfuse('PATCH /api/public/score-configs/{id}', () =>
        this.#client.api.scoreConfigs.update(
          config.id,
          { isArchived: true },
          requestOptions(this.#timeout),
        ),
      );
    }
    return active.length;
  }

  /** The id of the oldest active config of each name, for scores to be validated against. */
  async activeIds(): Promise<Map<string, string>> {
    const ids = new Map<string, string>();
    for (const config of await this.list()) {
      if (!ids.has(config.name)) ids.set(config.name, config.id);
    }
    return ids;
  }
}

/** @throws ScoreConfigNameError saying how to shorten or fix the name. */
export function checkConfigName(config: ScoreConfig): void {
  if (NAME_PATTERN.test(config.name)) return;
  const refused = [...new Set(config.name.replace(/[A-Za-z0-9_ .()-]/g, ''))];
  if (refused.length > 0) {
    throw new ScoreConfigNameError(
      `score config name '${config.name}' has characters Langfuse refuses ` +
        `(${refused.map((c) => `'${c}'`).join(', ')}); names use letters, digits, ` +
        `'_', ' ', '.', '(', ')' and '-'`,
    );
  }
  const typeRoom = MAX_NAME - config.field.length - 1;
  const advice =
    typeRoom >= 1
      ? `register the type under a name of at most ${typeRoom} characters ` +
        `('${config.typeName}' has ${config.typeName.length})`
      : `rename the field '${config.field}' to at most ${MAX_NAME - 2} characters`;
  throw new ScoreConfigNameError(
    `score config name '${config.name}' is ${config.name.length} characters, and Langfuse ` +
      `allows 1 to ${MAX_NAME}: ${advice}`,
  );
}

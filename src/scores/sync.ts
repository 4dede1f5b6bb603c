import { ScoreConfigSyncConflictError } from './errors.js';
import type { ScoreConfig } from './model/score-config.js';
import type { ScoreConfigStore } from './ports.js';

export interface SyncScoreConfigsOptions {
  /** Names of configs to archive: those of feedback types no longer declared. */
  readonly retired?: readonly string[];
}

export interface ScoreConfigsSynced {
  /** The names created, in the order given. */
  readonly created: string[];
  /** The names archived, in the order given. */
  readonly archived: string[];
}

/**
 * Creates the configs whose names the store lacks, in the order given (a name given twice is
 * created once), then archives the retired names that are still active, reading the store's
 * statuses once. A config the store has, archived or not, is never created again or updated,
 * even when it differs: its scores were validated against it. Every config to create passes the
 * store's `check` before the first is created. Running the same sync again changes nothing.
 *
 * @throws ScoreConfigSyncConflictError, sending nothing, when a name is both given and retired.
 */
export async function syncScoreConfigs(
  store: ScoreConfigStore,
  configs: readonly ScoreConfig[],
  options: SyncScoreConfigsOptions = {},
): Promise<ScoreConfigsSynced> {
  const retired = [...new Set(options.retired ?? [])];
  const given = new Set(configs.map((config) => config.name));
  const conflicts = retired.filter((name) => given.has(name));
  if (conflicts.length > 0) throw new ScoreConfigSyncConflictError(conflicts);

  const statuses = await store.statuses();
  const known = new Set(statuses.keys());
  const missing: ScoreConfig[] = [];
  for (const config of configs) {
    if (known.has(config.name)) continue;
    known.add(config.name);
    missing.push(config);
  }
  for (const config of missing) store.check?.(config);
  for (const config of missing) await store.create(config);

  const archived: string[] = [];
  for (const name of retired) {
    if (statuses.get(name)?.archived !== false) continue;
    if ((await store.archive(name)) > 0) archived.push(name);
  }
  return { created: missing.map((config) => config.name), archived };
}

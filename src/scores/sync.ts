import type { ScoreConfig } from './config.js';
import type { ScoreConfigStore } from './ports.js';

/**
 * Creates the configs whose names the store lacks, in the order given (a name given twice is
 * created once), reading the store's names once. A config the store has is never updated, even
 * when it differs: its scores were validated against it. Every config to create passes the
 * store's `check` before the first is created.
 *
 * @returns the names created, in order.
 */
export async function syncScoreConfigs(
  store: ScoreConfigStore,
  configs: readonly ScoreConfig[],
): Promise<string[]> {
  const known = new Set(await store.names());
  const missing: ScoreConfig[] = [];
  for (const config of configs) {
    if (known.has(config.name)) continue;
    known.add(config.name);
    missing.push(config);
  }
  for (const config of missing) store.check?.(config);
  for (const config of missing) await store.create(config);
  return missing.map((config) => config.name);
}

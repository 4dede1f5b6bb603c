import type { ScoreConfigDirectory, ScoreConfigStatus } from '../core/index.js';
import type { ScoreConfigStore } from '../scores/index.js';
import type { AppDefinition } from './define-config.js';

/**
 * Where the engine checks HUMAN feedback's config: the app's declaration, joined with the sink's
 * configs as they stand (read at most every `ttlMs`). A HUMAN type's config is its fields' score
 * configs; it is missing until all exist in the sink (docs/specification.md#score-configs)
 * and archived once any is, whether by the declaration or in the sink since.
 */
export function liveScoreConfigDirectory(
  app: AppDefinition,
  sink: ScoreConfigStore,
  ttlMs = 5000,
): ScoreConfigDirectory & { forget(): void } {
  let cached: { at: number; statuses: Promise<ReadonlyMap<string, { archived: boolean }>> } | null =
    null;
  const statuses = () => {
    if (cached === null || Date.now() - cached.at > ttlMs) {
      cached = { at: Date.now(), statuses: sink.statuses() };
      cached.statuses.catch(() => {
        cached = null;
      });
    }
    return cached.statuses;
  };
  return {
    async statusOf(names) {
      const declared = await app.scoreConfigs.statusOf(names);
      const live = await statuses();
      const found = new Map<string, ScoreConfigStatus>();
      for (const [name, status] of declared) {
        const fields = app.scoreConfigFields(name);
        if (fields.some((field) => !live.has(field))) continue;
        const archived = status.archived || fields.some((field) => live.get(field)?.archived);
        found.set(name, { archived });
      }
      return found;
    },
    /** Reads the sink afresh on the next check (after this process archived a config, say). */
    forget() {
      cached = null;
    },
  };
}

import type { ScoreConfigStatus } from '../core/index.js';
import type { ScoreConfigDirectory } from './port.js';

/** A directory of known configs; names not listed are missing. */
export function staticScoreConfigs(
  configs: Record<string, ScoreConfigStatus> = {},
): ScoreConfigDirectory {
  return {
    async statusOf(names) {
      const found = new Map<string, ScoreConfigStatus>();
      for (const name of names) {
        const status = configs[name];
        if (status !== undefined) found.set(name, status);
      }
      return found;
    },
  };
}

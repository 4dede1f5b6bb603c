import { type MirrorDeps, mirrorContext } from './mirror-context.js';
import { mirrorScores } from './mirror-scores.js';
import { reconcileDeletes } from './reconcile-deletes.js';
import { reconcileScores } from './reconcile-scores.js';
import type { MirrorResult, MirrorScoresInput, ReconcileInput, ReconcileResult } from './types.js';

/**
 * The `mirrorScores`, `reconcileScores` and `reconcileDeletes` activities: their names are the
 * ones recorded in workflow histories.
 */
export function mirrorActivities(deps: MirrorDeps) {
  const mirror = mirrorContext(deps);
  return {
    mirrorScores: (input: MirrorScoresInput): Promise<MirrorResult> => mirrorScores(mirror, input),
    reconcileScores: (input: ReconcileInput): Promise<ReconcileResult> =>
      reconcileScores(mirror, input),
    reconcileDeletes: (input: ReconcileInput): Promise<ReconcileResult> =>
      reconcileDeletes(mirror, input),
  };
}

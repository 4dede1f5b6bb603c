import { deleteEach } from './delete-scores.js';
import type { MirrorContext } from './mirror-context.js';
import type { ReconcileInput, ReconcileResult } from './types.js';

const WITHDRAWN = 'the feedback was withdrawn';

/**
 * Reads the pending deletions back, as writes are: those gone are settled deleted; those
 * still visible are deleted again, or on the final check marked failed with the reason
 * (Langfuse may answer a delete with success and keep the score).
 */
export async function reconcileDeletes(
  mirror: MirrorContext,
  input: ReconcileInput,
): Promise<ReconcileResult> {
  const { deps, observe } = mirror;
  const ids = (await deps.store.ledger.scores(input.workspaceId, { ids: input.ids }))
    .filter((entry) => entry.state === 'pending' && entry.deletion)
    .map((entry) => entry.score_id);
  const found = deps.reader && ids.length > 0 ? await deps.reader.read(ids) : new Map();
  const gone = ids.filter((id) => !found.has(id));
  const visible = ids.filter((id) => found.has(id));
  await deps.store.ledger.settleScores(
    input.workspaceId,
    gone.map((score_id) => ({ score_id, state: 'deleted', reason: WITHDRAWN })),
  );
  observe.confirmed(gone.length);
  if (input.final) {
    await deps.store.ledger.settleScores(
      input.workspaceId,
      visible.map((score_id) => ({
        score_id,
        state: 'failed',
        reason: 'still readable back after every deletion and reconciliation',
      })),
    );
    observe.failed(visible.length);
    return { confirmed: gone, missing: [], failed: visible };
  }
  const { refused } = await deleteEach(mirror, input.workspaceId, visible);
  const failed = new Set(refused);
  return { confirmed: gone, missing: visible.filter((id) => !failed.has(id)), failed: refused };
}

import { parseScores, type Score } from '../scores/index.js';
import { type MirrorContext, refusal } from './mirror-context.js';
import type { ReconcileInput, ReconcileResult } from './types.js';

// Langfuse reads a BOOLEAN back as true/false and may send a number as the same number.
const sameValue = (a: unknown, b: unknown) => a === b || Number(a) === Number(b);

/**
 * Reads the pending scores back: those visible with the value sent are confirmed; the rest
 * are sent again, or on the final check marked failed with the reason.
 */
export async function reconcileScores(
  { deps, observe }: MirrorContext,
  input: ReconcileInput,
): Promise<ReconcileResult> {
  const entries = (await deps.store.ledger.scores(input.workspaceId, { ids: input.ids })).filter(
    (entry) => entry.state === 'pending' && !entry.deletion,
  );
  const scores = parseScores(entries.map((entry) => entry.score));
  const found = deps.reader ? await deps.reader.read(scores.map((s) => s.id)) : null;
  const confirmed: string[] = [];
  const missing: Score[] = [];
  for (const score of scores) {
    const seen = found === null ? score : found.get(score.id);
    if (seen !== undefined && sameValue(seen.value, score.value)) confirmed.push(score.id);
    else missing.push(score);
  }
  await deps.store.ledger.settleScores(
    input.workspaceId,
    confirmed.map((score_id) => ({ score_id, state: 'confirmed', reason: null })),
  );
  // On the final check what is still missing fails; before it, it is sent again, and a sink
  // that refuses it for good fails it at once.
  const refused =
    input.final || missing.length === 0 ? null : await refusal(() => deps.sink.record(missing));
  const failed = input.final || refused !== null ? missing.map((s) => s.id) : [];
  await deps.store.ledger.settleScores(
    input.workspaceId,
    failed.map((score_id) => ({
      score_id,
      state: 'failed',
      reason: refused ?? 'not readable back with the value sent after every reconciliation',
    })),
  );
  observe.confirmed(confirmed.length);
  observe.written(input.final || refused !== null ? 0 : missing.length);
  observe.failed(failed.length);
  return {
    confirmed,
    missing: failed.length > 0 ? [] : missing.map((s) => s.id),
    failed,
  };
}

import { ScoreSinkError } from '../scores/index.js';
import { type MirrorContext, refusal } from './mirror-context.js';

/**
 * Deletes each id on its own, so one failing request costs only its own id: an id the sink
 * refuses for good is settled failed with why; one it fails for now (a 5xx, a 429) stays
 * pending, for the next read-back to delete again, and after a 429 the rest with it. Retrying the whole list instead would need
 * every one of its requests to succeed in one attempt, which under a steady fault rate a long
 * list never does. A sink that cannot delete leaves the scores visible: the read-back fails
 * them with why.
 */
export async function deleteEach(
  { deps, observe }: MirrorContext,
  workspaceId: string,
  ids: readonly string[],
): Promise<{ sent: string[]; later: string[]; refused: string[] }> {
  const sent: string[] = [];
  const later: string[] = [];
  const refused: { score_id: string; state: 'failed'; reason: string }[] = [];
  for (const [index, id] of ids.entries()) {
    try {
      await deps.sink.delete?.([id]);
      sent.push(id);
    } catch (error) {
      if (!(error instanceof ScoreSinkError && error.retryable)) {
        const reason = await refusal(() => Promise.reject(error)); // rethrows all but refusals
        refused.push({ score_id: id, state: 'failed', reason: `delete refused: ${reason}` });
      } else if (error.retryAfterMs === undefined) later.push(id);
      else {
        // Asked to wait (a 429): the rest waits too, until the next read-back.
        later.push(...ids.slice(index));
        break;
      }
    }
  }
  await deps.store.ledger.settleScores(workspaceId, refused);
  observe.deletesSent(sent.length);
  observe.failed(refused.length);
  return { sent, later, refused: refused.map((r) => r.score_id) };
}

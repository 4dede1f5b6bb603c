import type {
  Envelope,
  FeedbackGiven,
  FeedbackWithdrawn,
  RatingDeleted,
  ScoreRecorded,
} from '../core/index.js';
import type { Score } from '../scores/index.js';
import { activityLogger } from './activity-context.js';
import {
  type FeedbackEnvelope,
  scoreIdsOfWithdrawn,
  scoreOfRecorded,
  scoresOfFeedback,
  undeclaredFeedback,
} from './feedback-scores.js';
import type { MirrorContext } from './mirror-context.js';

/** What one event says of a score id: write it, delete it, or fail it without sending. */
export type Operation =
  /** `direct`: a score written as such (`record_score`), not one of a feedback's. */
  | { kind: 'write'; seq: number; id: string; score: Score; direct?: boolean }
  | { kind: 'delete'; seq: number; id: string }
  | { kind: 'failure'; seq: number; id: string; reason: string };

/** The last word of one event on each score id it touches. */
export async function operationsOf(
  { options }: MirrorContext,
  envelope: Envelope,
): Promise<Operation[]> {
  const { event, seq } = envelope;
  if (event.type === 'score_recorded') {
    const score = scoreOfRecorded(envelope as Envelope<ScoreRecorded>, options);
    return [{ kind: 'write', seq, id: score.id, score, direct: true }];
  }
  if (
    event.type !== 'feedback_given' &&
    event.type !== 'rating_deleted' &&
    event.type !== 'feedback_withdrawn'
  ) {
    return [];
  }
  const feedback = envelope as FeedbackEnvelope;
  const undeclared = undeclaredFeedback(feedback, options);
  if (undeclared !== null) {
    activityLogger().warn(`mirror: ${undeclared.reason}`, {
      workspaceId: envelope.workspace_id,
      seq,
      envelopeId: envelope.id,
      ledgerScoreId: undeclared.scoreId,
    });
    return [{ kind: 'failure', seq, id: undeclared.scoreId, reason: undeclared.reason }];
  }
  if (event.type === 'feedback_given') {
    const scores = await scoresOfFeedback(envelope as Envelope<FeedbackGiven>, options);
    return scores.map((score) => ({ kind: 'write', seq, id: score.id, score }));
  }
  return scoreIdsOfWithdrawn(feedback as Envelope<RatingDeleted | FeedbackWithdrawn>, options).map(
    (id) => ({ kind: 'delete', seq, id }),
  );
}

/**
 * A direct score written again (a harness re-scoring a trace on a later day) keeps the
 * timestamp of its first write: Langfuse replaces a score only when its id, name and the UTC
 * date of its timestamp all match, so a new day's timestamp would add a second row.
 * Feedback scores already carry their first recording's time.
 */
export async function keepFirstTimestamps(
  { deps }: MirrorContext,
  workspaceId: string,
  writes: Extract<Operation, { kind: 'write' }>[],
) {
  const direct = writes.filter((w) => w.direct);
  if (direct.length === 0) return writes;
  const first = new Map<string, string>();
  for (const entry of await deps.store.ledger.scores(workspaceId, {
    ids: direct.map((w) => w.id),
  })) {
    // The ledger keeps the score as first sent, and every later write carries its timestamp on.
    const timestamp = (entry.score as { timestamp?: unknown }).timestamp;
    if (!entry.deletion && typeof timestamp === 'string') first.set(entry.score_id, timestamp);
  }
  return writes.map((w) => {
    const timestamp = first.get(w.id);
    return timestamp === undefined ? w : { ...w, score: { ...w.score, timestamp } };
  });
}

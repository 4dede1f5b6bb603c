import type {
  Envelope,
  FeedbackGiven,
  FeedbackTypeRegistry,
  FeedbackWithdrawn,
  RatingDeleted,
} from '../core/index.js';
import {
  InvalidScoreError,
  parseScores,
  type Score,
  type ScoreReader,
  type ScoreSink,
  ScoreSinkError,
} from '../scores/index.js';
import type { Store } from '../store/index.js';
import { asActivityFailure } from './failures.js';
import { scoreIdsOfWithdrawn, scoresOfFeedback } from './feedback-scores.js';
import type { MirrorResult, MirrorScoresInput, ReconcileInput, ReconcileResult } from './types.js';

export interface MirrorDeps {
  store: Store;
  feedbackTypes: FeedbackTypeRegistry;
  sink: ScoreSink;
  /** Reads scores back; without one (a synchronous sink) what was recorded is confirmed. */
  reader: ScoreReader | null;
  tenantId: string;
}

/** The `mirrorScores` and `reconcileScores` activities. */
export function mirrorActivities(deps: MirrorDeps) {
  const options = { feedbackTypes: deps.feedbackTypes, store: deps.store, tenantId: deps.tenantId };

  return {
    /**
     * Turns the feedback after `afterSeq` into scores and records them in one batch; withdrawn
     * ratings' scores are deleted. Safe to repeat: scores upsert by id.
     */
    async mirrorScores(input: MirrorScoresInput): Promise<MirrorResult> {
      const envelopes = await deps.store.events({
        workspace_id: input.workspaceId,
        after: input.afterSeq,
        limit: input.limit,
      });
      const expected: { seq: number; score: Score }[] = [];
      const deleted: string[] = [];
      for (const envelope of envelopes) {
        if (envelope.event.type === 'feedback_given') {
          for (const score of await scoresOfFeedback(
            envelope as Envelope<FeedbackGiven>,
            options,
          )) {
            expected.push({ seq: envelope.seq, score });
          }
        } else if (
          envelope.event.type === 'rating_deleted' ||
          envelope.event.type === 'feedback_withdrawn'
        ) {
          deleted.push(
            ...scoreIdsOfWithdrawn(
              envelope as Envelope<RatingDeleted | FeedbackWithdrawn>,
              options,
            ),
          );
        }
      }
      // A later event may replace a score of an earlier one in the same page: send the latest.
      const latest = [...new Map(expected.map((e) => [e.score.id, e])).values()];
      await deps.store.ledger.expectScores(input.workspaceId, latest);
      const ids = latest.map((e) => e.score.id);
      // A batch the sink refuses for good fails its scores, not the workspace's mirror.
      const refused =
        ids.length === 0 ? null : await refusal(() => deps.sink.record(latest.map((e) => e.score)));
      if (refused !== null) {
        await deps.store.ledger.settleScores(
          input.workspaceId,
          ids.map((score_id) => ({ score_id, state: 'failed', reason: `refused: ${refused}` })),
        );
      }
      if (deleted.length > 0) {
        const notDeleted = deps.sink.delete
          ? await refusal(() => deps.sink.delete?.(deleted) ?? Promise.resolve())
          : null;
        await deps.store.ledger.settleScores(
          input.workspaceId,
          deleted.map((score_id) =>
            notDeleted === null
              ? { score_id, state: 'deleted', reason: 'the feedback was withdrawn' }
              : { score_id, state: 'failed', reason: `delete refused: ${notDeleted}` },
          ),
        );
      }
      return {
        lastSeq: envelopes.at(-1)?.seq ?? input.afterSeq,
        recorded: refused === null ? ids : [],
        failed: refused === null ? [] : ids,
        deleted,
      };
    },

    /**
     * Reads the pending scores back: those visible with the value sent are confirmed; the rest
     * are sent again, or on the final check marked failed with the reason.
     */
    async reconcileScores(input: ReconcileInput): Promise<ReconcileResult> {
      const entries = (
        await deps.store.ledger.scores(input.workspaceId, { ids: input.ids })
      ).filter((entry) => entry.state === 'pending');
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
      return {
        confirmed,
        missing: failed.length > 0 ? [] : missing.map((s) => s.id),
        failed,
      };
    },
  };
}

// Langfuse reads a BOOLEAN back as true/false and may send a number as the same number.
const sameValue = (a: unknown, b: unknown) => a === b || Number(a) === Number(b);

/**
 * Runs a sink call. A refusal for good (an invalid score, a non-retryable sink error) is returned
 * as its message; a transient failure is thrown for Temporal to retry, after the backend's
 * Retry-After when it gave one.
 */
async function refusal(work: () => Promise<void>): Promise<string | null> {
  try {
    await work();
    return null;
  } catch (error) {
    if (error instanceof InvalidScoreError) return error.message;
    if (!(error instanceof ScoreSinkError)) throw error;
    if (!error.retryable) return error.message;
    throw asActivityFailure(error);
  }
}

import type {
  Envelope,
  FeedbackGiven,
  FeedbackTypeRegistry,
  FeedbackWithdrawn,
  RatingDeleted,
  ScoreRecorded,
} from '../core/index.js';
import type { MirrorObserver } from '../metrics/observers.js';
import {
  InvalidScoreError,
  parseScores,
  type Score,
  type ScoreReader,
  type ScoreSink,
  ScoreSinkError,
} from '../scores/index.js';
import type { Store } from '../store/index.js';
import { activityLogger } from './activity-context.js';
import { asActivityFailure } from './failures.js';
import {
  type FeedbackEnvelope,
  scoreIdsOfWithdrawn,
  scoreOfRecorded,
  scoresOfFeedback,
  undeclaredFeedback,
} from './feedback-scores.js';
import type { MirrorResult, MirrorScoresInput, ReconcileInput, ReconcileResult } from './types.js';

export interface MirrorDeps {
  store: Store;
  feedbackTypes: FeedbackTypeRegistry;
  sink: ScoreSink;
  /** Reads scores back; without one (a synchronous sink) what was recorded is confirmed. */
  reader: ScoreReader | null;
  tenantId: string;
  /** Told of the scores sent, read back and failed (for the metrics). */
  observer?: MirrorObserver | undefined;
}

/** Tells nothing: a mirror without metrics. */
const unobserved: MirrorObserver = {
  written: () => {},
  deletesSent: () => {},
  confirmed: () => {},
  failed: () => {},
};

/** The `mirrorScores`, `reconcileScores` and `reconcileDeletes` activities. */
export function mirrorActivities(deps: MirrorDeps) {
  const options = { feedbackTypes: deps.feedbackTypes, store: deps.store, tenantId: deps.tenantId };
  const observe = deps.observer ?? unobserved;

  /** The last word of one event on each score id it touches. */
  async function operationsOf(envelope: Envelope): Promise<Operation[]> {
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
    return scoreIdsOfWithdrawn(
      feedback as Envelope<RatingDeleted | FeedbackWithdrawn>,
      options,
    ).map((id) => ({ kind: 'delete', seq, id }));
  }

  /**
   * A direct score written again (a harness re-scoring a trace on a later day) keeps the
   * timestamp of its first write: Langfuse replaces a score only when its id, name and the UTC
   * date of its timestamp all match, so a new day's timestamp would add a second row.
   * Feedback scores already carry their first recording's time.
   */
  async function keepFirstTimestamps(
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

  return {
    /**
     * Turns the feedback after `afterSeq` into scores and records them in one batch; withdrawn
     * feedback's scores are deleted, to be read back gone by `reconcileDeletes`. Feedback of a
     * type the app does not declare is settled failed, with a warning. Safe to repeat: scores
     * upsert by id, and the ledger takes an event's entries once.
     */
    async mirrorScores(input: MirrorScoresInput): Promise<MirrorResult> {
      const envelopes = await deps.store.events({
        workspace_id: input.workspaceId,
        after: input.afterSeq,
        limit: input.limit,
      });
      // A later event in the same page replaces an earlier one's word on an id: send only that.
      const latest = new Map<string, Operation>();
      for (const envelope of envelopes) {
        for (const operation of await operationsOf(envelope)) latest.set(operation.id, operation);
      }
      const operations = [...latest.values()];
      const writes = await keepFirstTimestamps(
        input.workspaceId,
        operations.filter((o) => o.kind === 'write'),
      );
      const deletes = operations.filter((o) => o.kind === 'delete');
      const failures = operations.filter((o) => o.kind === 'failure');
      const ws = input.workspaceId;
      await deps.store.ledger.recordFailures(
        ws,
        failures.map(({ seq, id, reason }) => ({ seq, score_id: id, reason })),
      );

      await deps.store.ledger.expectScores(ws, writes);
      const ids = writes.map((w) => w.id);
      // A batch the sink refuses for good fails its scores, not the workspace's mirror.
      const refused =
        ids.length === 0 ? null : await refusal(() => deps.sink.record(writes.map((w) => w.score)));
      if (refused !== null) {
        await deps.store.ledger.settleScores(
          ws,
          ids.map((score_id) => ({ score_id, state: 'failed', reason: `refused: ${refused}` })),
        );
      }

      await deps.store.ledger.expectDeletes(
        ws,
        deletes.map(({ seq, id }) => ({ seq, score_id: id })),
      );
      const notDeleted = await deleteEach(
        ws,
        deletes.map((d) => d.id),
      );
      observe.written(refused === null ? ids.length : 0);
      observe.failed((refused === null ? 0 : ids.length) + failures.length);
      return {
        lastSeq: envelopes.at(-1)?.seq ?? input.afterSeq,
        recorded: refused === null ? ids : [],
        failed: [
          ...(refused === null ? [] : ids),
          ...notDeleted.refused,
          ...failures.map((f) => f.id),
        ],
        // Deletes sent or left for later: the read-backs delete again whatever is still there.
        deleting: [...notDeleted.sent, ...notDeleted.later],
      };
    },

    /**
     * Reads the pending scores back: those visible with the value sent are confirmed; the rest
     * are sent again, or on the final check marked failed with the reason.
     */
    async reconcileScores(input: ReconcileInput): Promise<ReconcileResult> {
      const entries = (
        await deps.store.ledger.scores(input.workspaceId, { ids: input.ids })
      ).filter((entry) => entry.state === 'pending' && !entry.deletion);
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
    },

    /**
     * Reads the pending deletions back, as writes are: those gone are settled deleted; those
     * still visible are deleted again, or on the final check marked failed with the reason
     * (Langfuse may answer a delete with success and keep the score).
     */
    async reconcileDeletes(input: ReconcileInput): Promise<ReconcileResult> {
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
      const { refused } = await deleteEach(input.workspaceId, visible);
      const failed = new Set(refused);
      return { confirmed: gone, missing: visible.filter((id) => !failed.has(id)), failed: refused };
    },
  };

  /**
   * Deletes each id on its own, so one failing request costs only its own id: an id the sink
   * refuses for good is settled failed with why; one it fails for now (a 5xx, a 429) stays
   * pending, for the next read-back to delete again, and after a 429 the rest with it. Retrying the whole list instead would need
   * every one of its requests to succeed in one attempt, which under a steady fault rate a long
   * list never does. A sink that cannot delete leaves the scores visible: the read-back fails
   * them with why.
   */
  async function deleteEach(
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
}

const WITHDRAWN = 'the feedback was withdrawn';

/** What one event says of a score id: write it, delete it, or fail it without sending. */
type Operation =
  /** `direct`: a score written as such (`record_score`), not one of a feedback's. */
  | { kind: 'write'; seq: number; id: string; score: Score; direct?: boolean }
  | { kind: 'delete'; seq: number; id: string }
  | { kind: 'failure'; seq: number; id: string; reason: string };

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

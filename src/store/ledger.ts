import type { EvaluationState, ScoreState } from '../core/index.js';
import { asNumber, type Backend, parseJson, type Row } from './backend.js';
import { type EvaluationEntry, SETTLE_EVALUATION, settlementRow } from './evaluation-rows.js';

// The ledger: every (target, evaluator@version, generation) ends in exactly one state with its
// reason, every score the mirror sends ends confirmed, failed or deleted, and every event the
// trigger relay could not deliver is kept with its reason. Writes are idempotent, since the
// activities and the relay that make them run at least once.

export type { VerdictSettlement } from './evaluation-rows.js';
export type { EvaluationEntry, EvaluationState, ScoreState };

export interface ScoreEntry {
  workspace_id: string;
  score_id: string;
  /** The seq of the feedback event whose scores these are; a later event's write wins. */
  seq: number;
  state: ScoreState;
  reason: string | null;
  /** The score as sent, kept to re-send it; the store does not read it. */
  score: ScoreRecord;
  /**
   * The entry follows a deletion (the feedback was withdrawn), not a write: pending until read
   * back gone, then deleted or failed.
   */
  deletion: boolean;
  updated_at: string;
}

/** A score as the mirror sends it: only its id matters here. */
export interface ScoreRecord {
  id: string;
}

/** An event of the log the trigger relay could not deliver to its workflow, and why. */
export interface UndeliveredEntry {
  workspace_id: string;
  seq: number;
  /** The log event's type (`message_posted`, `run_ended`, ...). */
  event_type: string;
  run_id: string | null;
  /** The workflow that refused it. */
  workflow_id: string;
  reason: string;
  recorded_at: string;
}

export interface EvaluationFilter {
  generation?: string;
  participant?: string;
  state?: EvaluationState;
  /** One target's entries, by its target key (a thread's generations, say). */
  target_key?: string;
}

export interface Ledger {
  /** Settles a key; the first state written stays. Returns the entry as it now stands. */
  settleEvaluation(entry: Omit<EvaluationEntry, 'settled_at'>): Promise<EvaluationEntry>;
  evaluation(
    workspace_id: string,
    key: { generation: string; participant: string; target_key: string },
  ): Promise<EvaluationEntry | null>;
  evaluations(workspace_id: string, filter?: EvaluationFilter): Promise<EvaluationEntry[]>;
  /** Scores about to be sent: pending again, unless an entry from a later event holds the id. */
  expectScores(workspace_id: string, scores: { seq: number; score: ScoreRecord }[]): Promise<void>;
  /**
   * Scores whose delete is about to be sent: pending again as deletions, unless an entry from a
   * later event holds the id. An id without an entry gets one.
   */
  expectDeletes(workspace_id: string, deletes: { seq: number; score_id: string }[]): Promise<void>;
  /**
   * Feedback that could not become scores at all (its type is not declared, say): failed with
   * the reason before anything is sent, unless an entry from a later event holds the id.
   */
  recordFailures(
    workspace_id: string,
    failures: { seq: number; score_id: string; reason: string }[],
  ): Promise<void>;
  settleScores(
    workspace_id: string,
    updates: { score_id: string; state: Exclude<ScoreState, 'pending'>; reason: string | null }[],
  ): Promise<void>;
  /** Entries by id, or every entry in a state. */
  scores(
    workspace_id: string,
    select: { ids: readonly string[] } | { state: ScoreState },
  ): Promise<ScoreEntry[]>;
  /** Records events the relay could not deliver; an event already recorded keeps its entry. */
  recordUndelivered(entries: readonly Omit<UndeliveredEntry, 'recorded_at'>[]): Promise<void>;
  /** The workspace's undelivered events, in seq order. */
  undelivered(workspace_id: string): Promise<UndeliveredEntry[]>;
}

export function createLedger(backend: Backend, now: () => Date): Ledger {
  // One entry per score id; an event replays onto its own entry without changing it, and only a
  // later event's write replaces it.
  const upsertScores = async (
    workspace_id: string,
    entries: { seq: number; score: ScoreRecord; state: ScoreState; reason: string | null }[],
  ) => {
    if (entries.length === 0) return;
    const at = now().toISOString();
    await backend.transaction(async (sql) => {
      for (const { seq, score, state, reason } of entries) {
        await sql.run(
          `INSERT INTO score_ledger (workspace_id, score_id, seq, state, reason, score, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (workspace_id, score_id) DO UPDATE SET seq = excluded.seq,
             state = excluded.state, reason = excluded.reason, score = excluded.score,
             updated_at = excluded.updated_at
           WHERE score_ledger.seq < excluded.seq`,
          [workspace_id, score.id, seq, state, reason, JSON.stringify(score), at],
        );
      }
    });
  };

  return {
    async settleEvaluation(entry) {
      const key = {
        generation: entry.generation,
        participant: entry.participant,
        target_key: entry.target_key,
      };
      await backend.transaction((sql) =>
        sql.run(SETTLE_EVALUATION, settlementRow({ ...entry, settled_at: now().toISOString() })),
      );
      return (await this.evaluation(entry.workspace_id, key)) as EvaluationEntry;
    },
    async evaluation(workspace_id, key) {
      const rows = await backend.read((sql) =>
        sql.all(
          `SELECT * FROM evaluation_ledger WHERE workspace_id = ? AND generation = ?
             AND participant = ? AND target_key = ?`,
          [workspace_id, key.generation, key.participant, key.target_key],
        ),
      );
      return rows[0] === undefined ? null : evaluationEntry(rows[0]);
    },
    async evaluations(workspace_id, filter = {}) {
      const where = ['workspace_id = ?'];
      const params: unknown[] = [workspace_id];
      for (const column of ['generation', 'participant', 'state', 'target_key'] as const) {
        if (filter[column] === undefined) continue;
        where.push(`${column} = ?`);
        params.push(filter[column]);
      }
      const rows = await backend.read((sql) =>
        sql.all(
          `SELECT * FROM evaluation_ledger WHERE ${where.join(' AND ')}
             ORDER BY generation, participant, target_key`,
          params,
        ),
      );
      return rows.map(evaluationEntry);
    },
    expectScores: (workspace_id, scores) =>
      upsertScores(
        workspace_id,
        scores.map(({ seq, score }) => ({ seq, score, state: 'pending', reason: null })),
      ),
    expectDeletes: (workspace_id, deletes) =>
      upsertScores(
        workspace_id,
        deletes.map(({ seq, score_id }) => ({
          seq,
          score: { id: score_id, [DELETION]: true },
          state: 'pending',
          reason: null,
        })),
      ),
    recordFailures: (workspace_id, failures) =>
      upsertScores(
        workspace_id,
        failures.map(({ seq, score_id, reason }) => ({
          seq,
          score: { id: score_id },
          state: 'failed',
          reason,
        })),
      ),
    async settleScores(workspace_id, updates) {
      if (updates.length === 0) return;
      const at = now().toISOString();
      await backend.transaction(async (sql) => {
        for (const { score_id, state, reason } of updates) {
          await sql.run(
            `UPDATE score_ledger SET state = ?, reason = ?, updated_at = ?
               WHERE workspace_id = ? AND score_id = ?`,
            [state, reason, at, workspace_id, score_id],
          );
        }
      });
    },
    async scores(workspace_id, select) {
      const rows = await backend.read((sql) =>
        'ids' in select
          ? select.ids.length === 0
            ? Promise.resolve([])
            : sql.all(
                `SELECT * FROM score_ledger WHERE workspace_id = ?
                   AND score_id IN (${select.ids.map(() => '?').join(', ')}) ORDER BY seq, score_id`,
                [workspace_id, ...select.ids],
              )
          : sql.all(
              'SELECT * FROM score_ledger WHERE workspace_id = ? AND state = ? ORDER BY seq, score_id',
              [workspace_id, select.state],
            ),
      );
      return rows.map(scoreEntry);
    },
    async recordUndelivered(entries) {
      if (entries.length === 0) return;
      const at = now().toISOString();
      await backend.transaction(async (sql) => {
        for (const entry of entries) {
          await sql.run(
            `INSERT INTO undelivered (workspace_id, seq, event_type, run_id, workflow_id, reason,
               recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (workspace_id, seq) DO NOTHING`,
            [
              entry.workspace_id,
              entry.seq,
              entry.event_type,
              entry.run_id,
              entry.workflow_id,
              entry.reason,
              at,
            ],
          );
        }
      });
    },
    async undelivered(workspace_id) {
      const rows = await backend.read((sql) =>
        sql.all('SELECT * FROM undelivered WHERE workspace_id = ? ORDER BY seq', [workspace_id]),
      );
      return rows.map(undeliveredEntry);
    },
  };
}

const evaluationEntry = (row: Row): EvaluationEntry => ({
  workspace_id: String(row.workspace_id),
  generation: String(row.generation),
  participant: String(row.participant),
  target_key: String(row.target_key),
  target: parseJson(row.target),
  state: row.state as EvaluationState,
  reason: row.reason === null ? null : String(row.reason),
  envelope_id: row.envelope_id === null ? null : String(row.envelope_id),
  settled_at: String(row.settled_at),
});

// A deletion's entry keeps no score, only the id and this mark (no score field is named so).
const DELETION = '$deletion';

const scoreEntry = (row: Row): ScoreEntry => {
  const score = parseJson<ScoreRecord & { [DELETION]?: true }>(row.score);
  return {
    workspace_id: String(row.workspace_id),
    score_id: String(row.score_id),
    seq: asNumber(row.seq),
    state: row.state as ScoreState,
    reason: row.reason === null ? null : String(row.reason),
    score,
    deletion: score[DELETION] === true,
    updated_at: String(row.updated_at),
  };
};

const undeliveredEntry = (row: Row): UndeliveredEntry => ({
  workspace_id: String(row.workspace_id),
  seq: asNumber(row.seq),
  event_type: String(row.event_type),
  run_id: row.run_id === null ? null : String(row.run_id),
  workflow_id: String(row.workflow_id),
  reason: String(row.reason),
  recorded_at: String(row.recorded_at),
});

import type { ScoreState } from '../core/index.js';
import { asNumber, type Backend, parseJson, type Row } from './backend.js';
import type { ScoreEntry, ScoreRecord } from './ledger.js';

// The scores' part of the ledger: every score the mirror sends ends confirmed, failed or deleted.

type Clock = () => Date;

// One entry per score id; an event replays onto its own entry without changing it, and only a
// later event's write replaces it.
async function upsertScores(
  backend: Backend,
  now: Clock,
  workspace_id: string,
  entries: { seq: number; score: ScoreRecord; state: ScoreState; reason: string | null }[],
) {
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
}

/** Scores about to be sent: pending again, unless an entry from a later event holds the id. */
export const expectScores = (
  backend: Backend,
  now: Clock,
  workspace_id: string,
  scores: { seq: number; score: ScoreRecord }[],
) =>
  upsertScores(
    backend,
    now,
    workspace_id,
    scores.map(({ seq, score }) => ({ seq, score, state: 'pending', reason: null })),
  );

/** Scores whose delete is about to be sent: pending again as deletions. */
export const expectDeletes = (
  backend: Backend,
  now: Clock,
  workspace_id: string,
  deletes: { seq: number; score_id: string }[],
) =>
  upsertScores(
    backend,
    now,
    workspace_id,
    deletes.map(({ seq, score_id }) => ({
      seq,
      score: { id: score_id, [DELETION]: true },
      state: 'pending',
      reason: null,
    })),
  );

/** Feedback that could not become scores at all: failed with the reason before anything is sent. */
export const recordFailures = (
  backend: Backend,
  now: Clock,
  workspace_id: string,
  failures: { seq: number; score_id: string; reason: string }[],
) =>
  upsertScores(
    backend,
    now,
    workspace_id,
    failures.map(({ seq, score_id, reason }) => ({
      seq,
      score: { id: score_id },
      state: 'failed',
      reason,
    })),
  );

/** Sets the scores' states, as read back or refused. */
export async function settleScores(
  backend: Backend,
  now: Clock,
  workspace_id: string,
  updates: { score_id: string; state: Exclude<ScoreState, 'pending'>; reason: string | null }[],
): Promise<void> {
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
}

/** Entries by id, or every entry in a state. */
export async function scoreEntries(
  backend: Backend,
  workspace_id: string,
  select: { ids: readonly string[] } | { state: ScoreState },
): Promise<ScoreEntry[]> {
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
}

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

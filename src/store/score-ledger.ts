import type { ScoreState } from '../core/index.js';
import { asNumber, type Backend, parseJson, type Row } from './backend.js';
import type { ScoreEntry, ScoreRecord } from './ledger.js';

// The scores' part of the ledger: every score the mirror sends ends confirmed, failed or deleted.

type Clock = () => Date;

interface ScoreUpsert {
  seq: number;
  /** The score, or for a deletion its id and the mark. */
  score: ScoreRecord | { id: string; [DELETION]: true };
  state: ScoreState;
  reason: string | null;
}

// One entry per score id; an event replays onto its own entry without changing it, and only a
// later event's write replaces it.
async function upsertScores(
  backend: Backend,
  now: Clock,
  workspace_id: string,
  entries: ScoreUpsert[],
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

/**
 * A write of the ledger's entries for `items`, each as `entryOf` makes it: how every score
 * expected or failed before anything is sent reaches `upsertScores`.
 */
const upsertingEach =
  <T>(entryOf: (item: T) => ScoreUpsert) =>
  (backend: Backend, now: Clock, workspace_id: string, items: T[]) =>
    upsertScores(backend, now, workspace_id, items.map(entryOf));

/** Scores about to be sent: pending again, unless an entry from a later event holds the id. */
export const expectScores = upsertingEach(
  ({ seq, score }: { seq: number; score: ScoreRecord }): ScoreUpsert => ({
    seq,
    score,
    state: 'pending',
    reason: null,
  }),
);

/** Scores whose delete is about to be sent: pending again as deletions. */
export const expectDeletes = upsertingEach(
  ({ seq, score_id }: { seq: number; score_id: string }): ScoreUpsert => ({
    seq,
    score: { id: score_id, [DELETION]: true },
    state: 'pending',
    reason: null,
  }),
);

/** Feedback that could not become scores at all: failed with the reason before anything is sent. */
export const recordFailures = upsertingEach(
  ({ seq, score_id, reason }: { seq: number; score_id: string; reason: string }): ScoreUpsert => ({
    seq,
    score: { id: score_id },
    state: 'failed',
    reason,
  }),
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

import type { EvaluationState } from '../core/index.js';
import { type Backend, parseJson, type Row, type Sql } from './backend.js';
import { type EvaluationEntry, SETTLE_EVALUATION, settlementRow } from './evaluation-rows.js';
import type { EvaluationFilter } from './ledger.js';
import { Conditions } from './reads/conditions.js';

// The evaluations' part of the ledger: every (target, evaluator@version, generation) ends in
// exactly one state with its reason; the first state written stays.

/** Settles a key; the entry as it now stands. */
export async function settleEvaluation(
  backend: Backend,
  now: () => Date,
  entry: Omit<EvaluationEntry, 'settled_at'>,
): Promise<EvaluationEntry> {
  const key = {
    generation: entry.generation,
    participant: entry.participant,
    target_key: entry.target_key,
  };
  await backend.transaction((sql) =>
    sql.run(SETTLE_EVALUATION, settlementRow({ ...entry, settled_at: now().toISOString() })),
  );
  return (await evaluationEntryOf(backend, entry.workspace_id, key)) as EvaluationEntry;
}

/** One key's entry, or null while it is not settled. */
export async function evaluationEntryOf(
  backend: Backend,
  workspace_id: string,
  key: { generation: string; participant: string; target_key: string },
): Promise<EvaluationEntry | null> {
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT * FROM evaluation_ledger WHERE workspace_id = ? AND generation = ?
         AND participant = ? AND target_key = ?`,
      [workspace_id, key.generation, key.participant, key.target_key],
    ),
  );
  return rows[0] === undefined ? null : evaluationEntry(rows[0]);
}

/** The workspace's entries matching the filter, by generation, participant and target. */
export const evaluationEntries = (
  backend: Backend,
  workspace_id: string,
  filter: EvaluationFilter = {},
): Promise<EvaluationEntry[]> =>
  backend.read((sql) => readEvaluationEntries(sql, workspace_id, filter));

/** `evaluationEntries` on a connection already open, as part of a larger read. */
export async function readEvaluationEntries(
  sql: Sql,
  workspace_id: string,
  filter: EvaluationFilter,
): Promise<EvaluationEntry[]> {
  const { where, params } = new Conditions()
    .add('workspace_id = ?', workspace_id)
    .equalEach(filter, ['generation', 'participant', 'state', 'target_key']);
  const rows = await sql.all(
    `SELECT * FROM evaluation_ledger WHERE ${where.join(' AND ')}
       ORDER BY generation, participant, target_key`,
    params,
  );
  return rows.map(evaluationEntry);
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

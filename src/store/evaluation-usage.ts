import { asNumber, type Backend, type Row } from './backend.js';
import type { EvaluationKeyColumns } from './evaluation-rows.js';
import type { EvaluationUsage } from './usage.js';

const NOT_JUDGED: EvaluationUsage = {
  attempts: 0,
  duration_ms: 0,
  input_tokens: 0,
  output_tokens: 0,
  cost_nanos: 0,
  unpriced_reports: 0,
};
/** Keys per read: well under SQLite's and Postgres' bound parameter limits. */
const BATCH = 500;

/** One evaluation's attempts and usage (zeros when it was never judged). */
export async function usageOfEvaluation(
  backend: Backend,
  key: EvaluationKeyColumns,
): Promise<EvaluationUsage> {
  const params = [key.workspace_id, key.generation, key.participant, key.target_key];
  const where = 'workspace_id = ? AND generation = ? AND participant = ? AND target_key = ?';
  const [attempts, usage] = await backend.read(async (sql) => [
    await sql.all(
      `SELECT COUNT(*) AS attempts, COALESCE(SUM(duration_ms), 0) AS duration_ms
         FROM evaluation_attempts WHERE ${where}`,
      params,
    ),
    await sql.all(
      `SELECT COALESCE(SUM(input_tokens), 0) AS input_tokens,
         COALESCE(SUM(output_tokens), 0) AS output_tokens,
         COALESCE(SUM(cost_nanos), 0) AS cost_nanos,
         COUNT(*) - COUNT(cost_nanos) AS unpriced_reports
         FROM evaluation_usage WHERE ${where}`,
      params,
    ),
  ]);
  const a = attempts[0] as Row;
  const u = usage[0] as Row;
  return {
    attempts: asNumber(a.attempts),
    duration_ms: asNumber(a.duration_ms),
    input_tokens: asNumber(u.input_tokens),
    output_tokens: asNumber(u.output_tokens),
    cost_nanos: asNumber(u.cost_nanos),
    unpriced_reports: asNumber(u.unpriced_reports),
  };
}

/** Many evaluations' usage in one workspace, in the order of `keys`, read in batches. */
export async function usageOfEvaluations(
  backend: Backend,
  workspace_id: string,
  keys: readonly Omit<EvaluationKeyColumns, 'workspace_id'>[],
): Promise<EvaluationUsage[]> {
  const found = new Map<string, EvaluationUsage>();
  const idOf = (key: Row | Omit<EvaluationKeyColumns, 'workspace_id'>) =>
    `${key.generation}\u0000${key.participant}\u0000${key.target_key}`;
  const entry = (id: string) => {
    let usage = found.get(id);
    if (usage === undefined) {
      usage = { ...NOT_JUDGED };
      found.set(id, usage);
    }
    return usage;
  };
  const targets = [...new Set(keys.map((key) => key.target_key))];
  for (let i = 0; i < targets.length; i += BATCH) {
    const chunk = targets.slice(i, i + BATCH);
    const where = `workspace_id = ? AND target_key IN (${chunk.map(() => '?').join(', ')})`;
    const params = [workspace_id, ...chunk];
    const group = 'GROUP BY generation, participant, target_key';
    const [attempts, usage] = await backend.read(async (sql) => [
      await sql.all(
        `SELECT generation, participant, target_key, COUNT(*) AS attempts,
           SUM(duration_ms) AS duration_ms FROM evaluation_attempts WHERE ${where} ${group}`,
        params,
      ),
      await sql.all(
        `SELECT generation, participant, target_key, SUM(input_tokens) AS input_tokens,
           SUM(output_tokens) AS output_tokens, COALESCE(SUM(cost_nanos), 0) AS cost_nanos,
           COUNT(*) - COUNT(cost_nanos) AS unpriced_reports
           FROM evaluation_usage WHERE ${where} ${group}`,
        params,
      ),
    ]);
    for (const row of attempts) {
      const into = entry(idOf(row));
      into.attempts = asNumber(row.attempts);
      into.duration_ms = asNumber(row.duration_ms);
    }
    for (const row of usage) {
      const into = entry(idOf(row));
      into.input_tokens = asNumber(row.input_tokens);
      into.output_tokens = asNumber(row.output_tokens);
      into.cost_nanos = asNumber(row.cost_nanos);
      into.unpriced_reports = asNumber(row.unpriced_reports);
    }
  }
  return keys.map((key) => ({ ...(found.get(idOf(key)) ?? NOT_JUDGED) }));
}

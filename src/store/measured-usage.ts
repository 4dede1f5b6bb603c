import { asNumber, type Backend, type Row } from './backend.js';
import type { MeasuredCost, MeasuredDuration } from './usage.js';

// A version's measured cost and duration, in a workspace or everywhere: what estimates read.

const scopeOf = (participant: string, workspace_id: string | undefined) => ({
  scope: workspace_id === undefined ? '' : ' AND workspace_id = ?',
  params: workspace_id === undefined ? [participant] : [participant, workspace_id],
});

/** A version's mean cost per judged evaluation; null when unknown. */
export async function measuredCost(
  backend: Backend,
  participant: string,
  workspace_id?: string,
): Promise<MeasuredCost> {
  const { scope, params } = scopeOf(participant, workspace_id);
  const [judged, usage] = await backend.read(async (sql) => [
    await sql.all(
      `SELECT COUNT(DISTINCT workspace_id || '|' || generation || '|' || target_key) AS n
         FROM evaluation_attempts WHERE participant = ?${scope}`,
      params,
    ),
    await sql.all(
      `SELECT COALESCE(SUM(cost_nanos), 0) AS cost_nanos,
         COUNT(*) - COUNT(cost_nanos) AS unpriced FROM evaluation_usage
         WHERE participant = ?${scope}`,
      params,
    ),
  ]);
  const evaluations = asNumber((judged[0] as Row).n);
  const u = usage[0] as Row;
  const known = evaluations > 0 && asNumber(u.unpriced) === 0;
  return {
    evaluations,
    mean_cost_nanos: known ? Math.round(asNumber(u.cost_nanos) / evaluations) : null,
  };
}

/** A version's mean duration of one judged attempt; null with none recorded. */
export async function measuredDuration(
  backend: Backend,
  participant: string,
  workspace_id?: string,
): Promise<MeasuredDuration> {
  const { scope, params } = scopeOf(participant, workspace_id);
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT COUNT(*) AS attempts, COALESCE(SUM(duration_ms), 0) AS duration_ms
         FROM evaluation_attempts WHERE participant = ?${scope}`,
      params,
    ),
  );
  const row = rows[0] as Row;
  const attempts = asNumber(row.attempts);
  return {
    attempts,
    mean_attempt_ms: attempts > 0 ? asNumber(row.duration_ms) / attempts : null,
  };
}

import { asNumber, type Backend, type Row } from './backend.js';
import type { MeasuredCost, MeasuredDuration, UsageOnTarget } from './usage.js';

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

/**
 * What a version's calls on each of some targets used, in a workspace: its evaluations there (one
 * per generation), its calls (reports), their input tokens and their cost (null when any call is
 * unpriced). Targets it never judged are absent.
 */
export async function usageOn(
  backend: Backend,
  participant: string,
  workspace_id: string,
  target_keys: readonly string[],
): Promise<UsageOnTarget[]> {
  const rows: UsageOnTarget[] = [];
  // A few hundred keys per statement, within every backend's bound on parameters.
  for (let at = 0; at < target_keys.length; at += 500) {
    const keys = target_keys.slice(at, at + 500);
    const page = await backend.read((sql) =>
      sql.all(
        `SELECT target_key, COUNT(DISTINCT generation) AS evaluations, COUNT(*) AS reports,
           SUM(input_tokens) AS input_tokens, SUM(cost_nanos) AS cost_nanos,
           COUNT(*) - COUNT(cost_nanos) AS unpriced
           FROM evaluation_usage WHERE participant = ? AND workspace_id = ?
           AND target_key IN (${keys.map(() => '?').join(', ')})
           GROUP BY target_key ORDER BY target_key`,
        [participant, workspace_id, ...keys],
      ),
    );
    for (const row of page) {
      rows.push({
        target_key: String(row.target_key),
        evaluations: asNumber(row.evaluations),
        reports: asNumber(row.reports),
        input_tokens: asNumber(row.input_tokens),
        cost_nanos: asNumber(row.unpriced) === 0 ? asNumber(row.cost_nanos) : null,
      });
    }
  }
  return rows;
}

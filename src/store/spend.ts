import { asNumber, type Backend, type Row } from './backend.js';
import type { SpendDimension, SpendFilter, SpendRow } from './usage.js';

const columnOf: Record<SpendDimension, string> = {
  participant: 'participant',
  workspace: 'workspace_id',
  day: 'day',
  model: 'model',
};

/** Spend matching the filter, grouped by `by` (in that order), ordered by the same columns. */
export async function spend(
  backend: Backend,
  filter: SpendFilter,
  by: readonly SpendDimension[],
): Promise<SpendRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  if (filter.workspace_id !== undefined) add('workspace_id = ?', filter.workspace_id);
  if (filter.participant !== undefined) add('participant = ?', filter.participant);
  if (filter.evaluator_name !== undefined) {
    // A version's participant is `evaluator:{name}@{version}`; names hold no '@'.
    add('participant >= ?', `evaluator:${filter.evaluator_name}@`);
    add('participant < ?', `evaluator:${filter.evaluator_name}A`);
  }
  if (filter.generation !== undefined) add('generation = ?', filter.generation);
  if (filter.from_day !== undefined) add('day >= ?', filter.from_day);
  if (filter.to_day !== undefined) add('day <= ?', filter.to_day);
  const groups = [...new Set(by)].map((dimension) => columnOf[dimension]);
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT ${groups.map((column) => `${column}, `).join('')}
         COUNT(DISTINCT workspace_id || '|' || generation || '|' || participant || '|' || target_key)
           AS evaluations,
         COUNT(*) AS reports, SUM(input_tokens) AS input_tokens,
         SUM(output_tokens) AS output_tokens, COALESCE(SUM(cost_nanos), 0) AS cost_nanos,
         COUNT(*) - COUNT(cost_nanos) AS unpriced_reports
       FROM evaluation_usage ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ${groups.length > 0 ? `GROUP BY ${groups.join(', ')} ORDER BY ${groups.join(', ')}` : ''}`,
      params,
    ),
  );
  const text = (row: Row, column: string) => (groups.includes(column) ? String(row[column]) : null);
  return rows
    .filter((row) => asNumber(row.reports) > 0)
    .map((row) => ({
      participant: text(row, 'participant'),
      workspace_id: text(row, 'workspace_id'),
      day: text(row, 'day'),
      model: text(row, 'model'),
      evaluations: asNumber(row.evaluations),
      reports: asNumber(row.reports),
      input_tokens: asNumber(row.input_tokens),
      output_tokens: asNumber(row.output_tokens),
      cost_nanos: asNumber(row.cost_nanos),
      unpriced_reports: asNumber(row.unpriced_reports),
    }));
}

import { asNumber, type Backend, type Row } from './backend.js';
import {
  type AttemptRecord,
  attemptRow,
  type EvaluationKeyColumns,
  RECORD_ATTEMPT,
} from './evaluation-rows.js';

// What judging costs, kept beside the evaluation ledger: each judged attempt of an evaluation and
// each usage report within it. Both are keyed by the evaluation's ledger key and the attempt (and
// the report's place in it), so an activity that runs again writes nothing twice, and a retried
// attempt, whose money is spent too, adds its own rows. Money is in nano-dollars.

export type { AttemptRecord, EvaluationKeyColumns };

export interface UsageRecord extends EvaluationKeyColumns {
  attempt: number;
  /** The report's place within its attempt, from 0. */
  report: number;
  model: string;
  input_tokens: number;
  output_tokens: number;
  /** Null when neither the evaluator nor the price table gave a cost. */
  cost_nanos: number | null;
}

/** One evaluation's attempts and what they used. */
export interface EvaluationUsage {
  attempts: number;
  duration_ms: number;
  input_tokens: number;
  output_tokens: number;
  cost_nanos: number;
  /** Reports with no cost: their tokens are counted, their money is not known. */
  unpriced_reports: number;
}

export const spendDimensions = ['participant', 'workspace', 'day', 'model'] as const;
export type SpendDimension = (typeof spendDimensions)[number];

export interface SpendFilter {
  workspace_id?: string;
  /** One evaluator version (`evaluator:{name}@{version}`). */
  participant?: string;
  /** Every version of one evaluator, by name. */
  evaluator_name?: string;
  /** One generation's (a batch's id is its verdicts' generation). */
  generation?: string;
  /** First and last UTC day included, `YYYY-MM-DD`. */
  from_day?: string;
  to_day?: string;
}

/** Spend summed over the dimensions asked for; the others are null. */
export interface SpendRow {
  participant: string | null;
  workspace_id: string | null;
  day: string | null;
  model: string | null;
  /** Evaluations that reported usage. */
  evaluations: number;
  reports: number;
  input_tokens: number;
  output_tokens: number;
  cost_nanos: number;
  unpriced_reports: number;
}

/** An evaluator version's measured cost, for estimates. */
export interface MeasuredCost {
  /** Evaluations judged (an attempt recorded). */
  evaluations: number;
  /** Mean cost per judged evaluation; null with no evaluations, or with unpriced usage. */
  mean_cost_nanos: number | null;
}

export interface UsageLedger {
  /** Records one judged attempt; an attempt already recorded keeps its row. */
  recordAttempt(record: AttemptRecord): Promise<void>;
  /** Records one usage report; a report already recorded keeps its row. */
  recordUsage(record: UsageRecord): Promise<void>;
  /** One evaluation's attempts and usage (zeros when it was never judged). */
  ofEvaluation(key: EvaluationKeyColumns): Promise<EvaluationUsage>;
  /**
   * Many evaluations' usage in one workspace, in the order of `keys` (zeros for one never
   * judged): two reads per few hundred keys, not two per evaluation.
   */
  ofEvaluations(
    workspace_id: string,
    keys: readonly Omit<EvaluationKeyColumns, 'workspace_id'>[],
  ): Promise<EvaluationUsage[]>;
  /** Spend matching the filter, grouped by `by` (in that order), ordered by the same columns. */
  spend(filter: SpendFilter, by: readonly SpendDimension[]): Promise<SpendRow[]>;
  /** A version's mean cost per judged evaluation, in a workspace or everywhere. */
  measuredCost(participant: string, workspace_id?: string): Promise<MeasuredCost>;
  /** A version's mean duration of one judged attempt, in a workspace or everywhere. */
  measuredDuration(participant: string, workspace_id?: string): Promise<MeasuredDuration>;
}

/** An evaluator version's measured attempt duration, for estimates. */
export interface MeasuredDuration {
  attempts: number;
  /** Null with no attempts recorded. */
  mean_attempt_ms: number | null;
}

const columnOf: Record<SpendDimension, string> = {
  participant: 'participant',
  workspace: 'workspace_id',
  day: 'day',
  model: 'model',
};

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

export function createUsageLedger(backend: Backend, now: () => Date): UsageLedger {
  const stamp = () => {
    const at = now().toISOString();
    return { at, day: at.slice(0, 10) };
  };
  return {
    async recordAttempt(record) {
      const { at } = stamp();
      await backend.transaction((sql) => sql.run(RECORD_ATTEMPT, attemptRow(record, at)));
    },
    async recordUsage(record) {
      const { at, day } = stamp();
      await backend.transaction((sql) =>
        sql.run(
          `INSERT INTO evaluation_usage (workspace_id, generation, participant, target_key,
             attempt, report, model, input_tokens, output_tokens, cost_nanos, day, recorded_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT DO NOTHING`,
          [
            record.workspace_id,
            record.generation,
            record.participant,
            record.target_key,
            record.attempt,
            record.report,
            record.model,
            record.input_tokens,
            record.output_tokens,
            record.cost_nanos,
            day,
            at,
          ],
        ),
      );
    },
    async ofEvaluation(key) {
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
    },
    async ofEvaluations(workspace_id, keys) {
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
    },
    async spend(filter, by) {
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
      const text = (row: Row, column: string) =>
        groups.includes(column) ? String(row[column]) : null;
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
    },
    async measuredCost(participant, workspace_id) {
      const scope = workspace_id === undefined ? '' : ' AND workspace_id = ?';
      const params = workspace_id === undefined ? [participant] : [participant, workspace_id];
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
    },
    async measuredDuration(participant, workspace_id) {
      const scope = workspace_id === undefined ? '' : ' AND workspace_id = ?';
      const params = workspace_id === undefined ? [participant] : [participant, workspace_id];
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
    },
  };
}

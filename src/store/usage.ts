import type { AttemptRecord, EvaluationKeyColumns } from './evaluation-rows.js';

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
  /** What a version's calls on each of these targets used, in a workspace. */
  usageOn(
    participant: string,
    workspace_id: string,
    target_keys: readonly string[],
  ): Promise<UsageOnTarget[]>;
}

/** What a version's calls on one target used: its evaluations and calls there, summed. */
export interface UsageOnTarget {
  target_key: string;
  /** One per generation that judged it. */
  evaluations: number;
  /** Its calls (usage reports), retried attempts' included. */
  reports: number;
  input_tokens: number;
  /** Null when any of its calls is unpriced. */
  cost_nanos: number | null;
}

/** An evaluator version's measured attempt duration, for estimates. */
export interface MeasuredDuration {
  attempts: number;
  /** Null with no attempts recorded. */
  mean_attempt_ms: number | null;
}

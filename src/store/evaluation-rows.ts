import type { EvaluationState } from '../core/index.js';

// The rows an evaluation writes: its ledger entry and its attempts. Each is written alike on its
// own (the ledger, the usage ledger) and by the append of a verdict, which settles its evaluation
// and records the attempt that judged it in the same transaction.

export interface EvaluationEntry {
  workspace_id: string;
  generation: string;
  participant: string;
  target_key: string;
  target: unknown;
  state: EvaluationState;
  reason: string | null;
  envelope_id: string | null;
  settled_at: string;
}

export const SETTLEMENT_COLUMNS = [
  'workspace_id',
  'generation',
  'participant',
  'target_key',
  'target',
  'state',
  'reason',
  'envelope_id',
  'settled_at',
] as const;

export const SETTLEMENT_CONFLICT =
  'ON CONFLICT (workspace_id, generation, participant, target_key) DO NOTHING';

/** Settles a key unless it is settled already: the first state written stays. */
export const SETTLE_EVALUATION = `INSERT INTO evaluation_ledger (${SETTLEMENT_COLUMNS.join(', ')})
  VALUES (${SETTLEMENT_COLUMNS.map(() => '?').join(', ')}) ${SETTLEMENT_CONFLICT}`;

/** An entry's values in `SETTLEMENT_COLUMNS` order. */
export const settlementRow = (entry: EvaluationEntry): unknown[] => [
  entry.workspace_id,
  entry.generation,
  entry.participant,
  entry.target_key,
  JSON.stringify(entry.target),
  entry.state,
  entry.reason,
  entry.envelope_id,
  entry.settled_at,
];

export interface EvaluationKeyColumns {
  workspace_id: string;
  generation: string;
  participant: string;
  target_key: string;
}

export interface AttemptRecord extends EvaluationKeyColumns {
  attempt: number;
  duration_ms: number;
  /** The evaluator threw (the verdict may still come from a later attempt). */
  failed: boolean;
}

export const ATTEMPT_COLUMNS = [
  'workspace_id',
  'generation',
  'participant',
  'target_key',
  'attempt',
  'duration_ms',
  'failed',
  'day',
  'recorded_at',
] as const;

/** Records an attempt unless it is recorded already (Temporal ran the activity again). */
export const RECORD_ATTEMPT = `INSERT INTO evaluation_attempts (${ATTEMPT_COLUMNS.join(', ')})
  VALUES (${ATTEMPT_COLUMNS.map(() => '?').join(', ')}) ON CONFLICT DO NOTHING`;

/** An attempt's values in `ATTEMPT_COLUMNS` order, recorded at `at` (ISO-8601, UTC). */
export const attemptRow = (record: AttemptRecord, at: string): unknown[] => [
  record.workspace_id,
  record.generation,
  record.participant,
  record.target_key,
  record.attempt,
  Math.round(record.duration_ms),
  record.failed ? 1 : 0,
  at.slice(0, 10),
  at,
];

/**
 * An evaluation the append of its verdict settles as `recorded` in the same transaction, with
 * the attempt that judged it: a verdict is never in the log without its ledger entry, nor the
 * reverse.
 */
export interface VerdictSettlement {
  generation: string;
  participant: string;
  target_key: string;
  target: unknown;
  /** The attempt that gave the verdict (an evaluator's that judged; none for one given later). */
  attempt?: { attempt: number; duration_ms: number };
}

import type { EvaluationState, ScoreState } from '../core/index.js';
import type { EvaluationEntry } from './evaluation-rows.js';

// The ledger: every (target, evaluator@version, generation) ends in exactly one state with its
// reason, every score the mirror sends ends confirmed, failed or deleted, and every event the
// trigger relay could not deliver is kept with its reason. Writes are idempotent, since the
// activities and the relay that make them run at least once.

export type { VerdictSettlement } from './evaluation-rows.js';
export type { EvaluationEntry, EvaluationState, ScoreState };

export interface ScoreEntry {
  workspace_id: string;
  score_id: string;
  /** The seq of the feedback event whose scores these are; a later event's write wins. */
  seq: number;
  state: ScoreState;
  reason: string | null;
  /** The score as sent, kept to re-send it; the store does not read it. */
  score: ScoreRecord;
  /**
   * The entry follows a deletion (the feedback was withdrawn), not a write: pending until read
   * back gone, then deleted or failed.
   */
  deletion: boolean;
  updated_at: string;
}

/** A score as the mirror sends it: only its id matters here. */
export interface ScoreRecord {
  id: string;
}

/** An event of the log the trigger relay could not deliver to its workflow, and why. */
export interface UndeliveredEntry {
  workspace_id: string;
  seq: number;
  /** The log event's type (`message_posted`, `run_ended`, ...). */
  event_type: string;
  run_id: string | null;
  /** The workflow that refused it. */
  workflow_id: string;
  reason: string;
  recorded_at: string;
}

export interface EvaluationFilter {
  generation?: string;
  participant?: string;
  state?: EvaluationState;
  /** One target's entries, by its target key (a thread's generations, say). */
  target_key?: string;
}

export interface Ledger {
  /** Settles a key; the first state written stays. Returns the entry as it now stands. */
  settleEvaluation(entry: Omit<EvaluationEntry, 'settled_at'>): Promise<EvaluationEntry>;
  evaluation(
    workspace_id: string,
    key: { generation: string; participant: string; target_key: string },
  ): Promise<EvaluationEntry | null>;
  evaluations(workspace_id: string, filter?: EvaluationFilter): Promise<EvaluationEntry[]>;
  /** Scores about to be sent: pending again, unless an entry from a later event holds the id. */
  expectScores(workspace_id: string, scores: { seq: number; score: ScoreRecord }[]): Promise<void>;
  /**
   * Scores whose delete is about to be sent: pending again as deletions, unless an entry from a
   * later event holds the id. An id without an entry gets one.
   */
  expectDeletes(workspace_id: string, deletes: { seq: number; score_id: string }[]): Promise<void>;
  /**
   * Feedback that could not become scores at all (its type is not declared, say): failed with
   * the reason before anything is sent, unless an entry from a later event holds the id.
   */
  recordFailures(
    workspace_id: string,
    failures: { seq: number; score_id: string; reason: string }[],
  ): Promise<void>;
  settleScores(
    workspace_id: string,
    updates: { score_id: string; state: Exclude<ScoreState, 'pending'>; reason: string | null }[],
  ): Promise<void>;
  /** Entries by id, or every entry in a state. */
  scores(
    workspace_id: string,
    select: { ids: readonly string[] } | { state: ScoreState },
  ): Promise<ScoreEntry[]>;
  /** Records events the relay could not deliver; an event already recorded keeps its entry. */
  recordUndelivered(entries: readonly Omit<UndeliveredEntry, 'recorded_at'>[]): Promise<void>;
  /** The workspace's undelivered events, in seq order. */
  undelivered(workspace_id: string): Promise<UndeliveredEntry[]>;
}

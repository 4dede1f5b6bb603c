import { z } from 'zod';
import {
  type EvaluationTarget,
  evaluationStates,
  evaluatorIdOf,
  threadGenerationSeq,
  usdOf,
} from '../core/index.js';
import type { EvaluationEntry, EvaluationRecords, EvaluationUsage } from '../store/index.js';
import { WireTarget, wireTarget } from './entities.js';

// The evaluation ledger's entries on the wire: `GET /v1/runs/:runId`, `GET /v1/ledger` and
// `evalflow ledger --json` answer with this shape, each entry with what judging it used.

/** What an evaluation's attempts used; `costUsd` leaves out the `unpricedReports`' unknown cost. */
export const EntryUsage = z.object({
  /** Evaluator calls recorded, a failed one included (its money is spent too). */
  attempts: z.int(),
  durationMs: z.int(),
  inputTokens: z.int(),
  outputTokens: z.int(),
  costUsd: z.number(),
  unpricedReports: z.int(),
});
export type EntryUsage = z.output<typeof EntryUsage>;

export const LedgerEntry = z.object({
  generation: z.string(),
  evaluator: z.string(),
  target: WireTarget,
  state: z.enum(evaluationStates),
  reason: z.string().nullable(),
  eventId: z.string().nullable(),
  settledAt: z.string(),
  usage: EntryUsage,
});
export type LedgerEntry = z.output<typeof LedgerEntry>;

export const entryUsage = (usage: EvaluationUsage): EntryUsage => ({
  attempts: usage.attempts,
  durationMs: usage.duration_ms,
  inputTokens: usage.input_tokens,
  outputTokens: usage.output_tokens,
  costUsd: usdOf(usage.cost_nanos),
  unpricedReports: usage.unpriced_reports,
});

export const ledgerEntry = (entry: EvaluationEntry, usage: EvaluationUsage): LedgerEntry => ({
  generation: entry.generation,
  evaluator: evaluatorIdOf(entry.participant),
  target: wireTarget(entry.target as EvaluationTarget),
  state: entry.state,
  reason: entry.reason,
  eventId: entry.envelope_id,
  settledAt: entry.settled_at,
  usage: entryUsage(usage),
});

/** One workspace's entries on the wire, their usage read in one batched read. */
export async function ledgerEntries(
  store: Pick<EvaluationRecords, 'usage'>,
  workspaceId: string,
  entries: readonly EvaluationEntry[],
): Promise<LedgerEntry[]> {
  const usage = await store.usage.ofEvaluations(workspaceId, entries);
  return entries.map((entry, i) => ledgerEntry(entry, usage[i] as EvaluationUsage));
}

/**
 * Entries in the order their generations were judged: a thread's (`thread:{seq}`) by the seq
 * each covers, which the ledger's own order (by text) does not keep.
 */
export const byGeneration = (entries: readonly EvaluationEntry[]): EvaluationEntry[] =>
  [...entries].sort(
    (a, b) =>
      generationSeq(a) - generationSeq(b) ||
      (a.participant < b.participant ? -1 : a.participant > b.participant ? 1 : 0),
  );
const generationSeq = (entry: EvaluationEntry) => threadGenerationSeq(entry.generation) ?? 0;

/** A ledger target's run: a turn's, a message's, or none for an artifact version. */
export const runOfTarget = (target: EvaluationTarget): string | null =>
  'run_id' in target ? target.run_id : null;

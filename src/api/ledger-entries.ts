import { z } from 'zod';
import { type EvaluationTarget, evaluationStates, threadGenerationSeq } from '../core/index.js';
import type { EvaluationEntry } from '../store/index.js';
import { WireTarget, wireTarget } from './wire.js';

// The evaluation ledger's entries on the wire: `GET /v1/runs/:runId`, `GET /v1/ledger` and
// `evalflow ledger --json` answer with this shape.

export const LedgerEntry = z.object({
  generation: z.string(),
  evaluator: z.string(),
  target: WireTarget,
  state: z.enum(evaluationStates),
  reason: z.string().nullable(),
  eventId: z.string().nullable(),
  settledAt: z.string(),
});
export type LedgerEntry = z.output<typeof LedgerEntry>;

export const ledgerEntry = (entry: EvaluationEntry): LedgerEntry => ({
  generation: entry.generation,
  evaluator: entry.participant.replace(/^evaluator:/, ''),
  target: wireTarget(entry.target as EvaluationTarget),
  state: entry.state,
  reason: entry.reason,
  eventId: entry.envelope_id,
  settledAt: entry.settled_at,
});

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

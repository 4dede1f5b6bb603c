import { type LabelMapping, labelText } from '../agreement/index.js';
import type { FeedbackRecord, Target, TargetKind } from '../core/index.js';
import type { EntityReads } from '../store/index.js';
import type { ResolvedSide } from './sides.js';

// One side's verdicts, target by target, from one indexed read of the feedback view:
// - an evaluator version's current verdict on a target is its latest generation's (the one with
//   the highest seq: re-evaluation appends generations, never replaces them);
// - a population's (reviewers, users) is its raters' together: each rater's latest, then the
//   majority label, or for a number the mean. A tie has no majority: the target has no verdict
//   on that side, and is counted in `ties`.
// A value the field leaves absent (missing, null, empty) is no verdict, as it is no score.

/** Where the verdicts are read: the workspace, and the slices every side shares. */
export interface Slices {
  readonly workspaceId: string;
  /** Verdicts last given at or after this instant (ISO-8601), and before `to`. */
  readonly from?: string;
  readonly to?: string;
  readonly targetKind?: TargetKind;
  /** Renames labels on both sides before anything is counted. */
  readonly mapping?: LabelMapping;
}

/** One rater's verdict on a target. */
export interface Vote {
  readonly participant: string;
  readonly value: string | number;
}

/** A side's verdict on one target. */
export interface TargetVerdict {
  readonly target: Target;
  /** The label (after the mapping) or number; null on a tie. */
  readonly value: string | number | null;
  /** The highest seq of the verdicts it is made of. */
  readonly seq: number;
  /** Each rater's verdict, for a population; empty for an evaluator version. */
  readonly votes: readonly Vote[];
}

export interface SideVerdicts {
  /** By target key. */
  readonly byTarget: ReadonlyMap<string, TargetVerdict>;
  /** Targets whose raters tied, so the side has no verdict on them. */
  readonly ties: number;
  /** Distinct raters seen. */
  readonly raters: number;
}

/** A stored value's verdict on the side's field: its label or number; null when absent. */
function verdictOf(
  side: ResolvedSide,
  record: FeedbackRecord,
  mapping: LabelMapping | undefined,
): string | number | null {
  const raw = record.value[side.config.field];
  if (raw === undefined || raw === null || raw === '') return null;
  if (side.config.dataType === 'NUMERIC') return typeof raw === 'number' ? raw : null;
  if (typeof raw !== 'string' && typeof raw !== 'boolean' && typeof raw !== 'number') return null;
  return labelText(raw, mapping);
}

/** Reads one side's verdicts with the shared slices: one query, then one pass. */
export async function readSide(
  store: EntityReads,
  side: ResolvedSide,
  slices: Slices,
): Promise<SideVerdicts> {
  const records = await store.feedback(slices.workspaceId, {
    ...side.filter,
    ...(slices.targetKind ? { target_kind: slices.targetKind } : {}),
    ...(slices.from ? { updated_from: slices.from } : {}),
    ...(slices.to ? { updated_before: slices.to } : {}),
  });
  // Records come in seq order, so a later one replaces an earlier one of the same rater.
  return side.several
    ? together(side, records, slices.mapping)
    : alone(side, records, slices.mapping);
}

/** One rater's (an evaluator version's, one reviewer's): the latest verdict on each target. */
function alone(
  side: ResolvedSide,
  records: readonly FeedbackRecord[],
  mapping: LabelMapping | undefined,
): SideVerdicts {
  const byTarget = new Map<string, TargetVerdict>();
  for (const record of records) {
    const value = verdictOf(side, record, mapping);
    if (value === null) continue;
    byTarget.set(record.target_key, { target: record.target, value, seq: record.seq, votes: [] });
  }
  return { byTarget, ties: 0, raters: byTarget.size > 0 ? 1 : 0 };
}

/** A population's: each rater's latest verdict on a target, then their majority (or mean). */
function together(
  side: ResolvedSide,
  records: readonly FeedbackRecord[],
  mapping: LabelMapping | undefined,
): SideVerdicts {
  const latest = new Map<string, Map<string, { record: FeedbackRecord; value: string | number }>>();
  const raters = new Set<string>();
  for (const record of records) {
    const value = verdictOf(side, record, mapping);
    if (value === null) continue;
    let onTarget = latest.get(record.target_key);
    if (onTarget === undefined) {
      onTarget = new Map();
      latest.set(record.target_key, onTarget);
    }
    onTarget.set(record.participant, { record, value });
    raters.add(record.participant);
  }
  const byTarget = new Map<string, TargetVerdict>();
  let ties = 0;
  for (const [key, onTarget] of latest) {
    const entries = [...onTarget.values()];
    const first = entries[0] as (typeof entries)[number];
    const seq = Math.max(...entries.map((entry) => entry.record.seq));
    const votes = entries.map(({ record, value }) => ({ participant: record.participant, value }));
    const value = side.config.dataType === 'NUMERIC' ? meanOf(votes) : majorityOf(votes);
    if (value === null) ties += 1;
    byTarget.set(key, { target: first.record.target, value, seq, votes });
  }
  return { byTarget, ties, raters: raters.size };
}

const meanOf = (votes: readonly Vote[]): number =>
  votes.reduce((sum, vote) => sum + (vote.value as number), 0) / votes.length;

/** The label most raters gave; null when two or more labels share the most votes. */
function majorityOf(votes: readonly Vote[]): string | null {
  const counts = new Map<string, number>();
  for (const vote of votes)
    counts.set(String(vote.value), (counts.get(String(vote.value)) ?? 0) + 1);
  let best: string | null = null;
  let most = 0;
  let tied = false;
  for (const [label, count] of counts) {
    if (count > most) {
      best = label;
      most = count;
      tied = false;
    } else if (count === most) tied = true;
  }
  return tied ? null : best;
}

import { evaluatorId, evaluatorParticipant, targetKey } from '../../core/keys.js';
import type { EvaluationTarget } from '../../core/targets.js';
import type { BackfillTargetIndex } from '../port.js';
import type { BackfillCursor, BackfillSelector } from './backfill-targets.js';

// A backfill's selection over the store's keyset rows: sampled, cut to what the batch's versions
// have not judged yet, and limited. The batch's activities and its preview read through this one
// module, so a preview counts exactly what its batch would judge.

/** A backfill's targets: the store's selector, then a sample, a limit, and what is unjudged. */
export interface BackfillSelection extends BackfillSelector {
  /** The share of the selected targets judged, from 0 to 1, the same share on every read. */
  sampleFraction?: number;
  /** At most this many targets (after the sample). */
  limit?: number;
  /** Leave out each version's pairs it has recorded a verdict on, in any generation. */
  unjudgedOnly?: boolean;
}

export interface BackfillCountInput {
  workspaceId: string;
  selection: BackfillSelection;
  evaluators: readonly { name: string; version: string }[];
}

/** Targets selected, and the pairs each version (`name@version`) would judge among them. */
export interface BackfillCounts {
  targets: number;
  pairs: Record<string, number>;
}

export interface BackfillPageInput extends BackfillCountInput {
  /** Keyset: the last row of the previous page. */
  after: BackfillCursor | null;
  limit: number;
}

export interface BackfillPage {
  /** The page's targets after the sample, each with the versions that already judged it. */
  targets: { target: EvaluationTarget; judgedBy: string[] }[];
  /** Where the next page starts (the last row read, sampled or not). */
  after: BackfillCursor | null;
  /** Fewer rows than asked: the selection has no more. */
  exhausted: boolean;
}

/** Whether a target (by its key) is in the sample of `fraction` (deterministic). */
export type Sample = (targetKey: string, fraction: number) => boolean;

/** Rows read a page at a time where the count cannot be made in SQL (a sample, "unjudged"). */
const countPage = 1000;

export async function backfillPage(
  index: BackfillTargetIndex,
  sample: Sample,
  input: BackfillPageInput,
): Promise<BackfillPage> {
  const { workspaceId, selection, evaluators } = input;
  const rows = await index.list(workspaceId, selection, input.after, input.limit);
  const fraction = selection.sampleFraction ?? 1;
  const sampled = rows.filter((row) => sample(targetKey(row.target), fraction));
  const recorded = selection.unjudgedOnly
    ? await index.recorded(
        workspaceId,
        evaluators.map(evaluatorParticipant),
        sampled.map((row) => row.target),
      )
    : new Set<string>();
  return {
    targets: sampled.map(({ target }) => ({
      target,
      judgedBy: evaluators
        .filter((ref) => recorded.has(`${evaluatorParticipant(ref)}|${targetKey(target)}`))
        .map(evaluatorId),
    })),
    after: rows.at(-1)?.cursor ?? null,
    exhausted: rows.length < input.limit,
  };
}

export async function countBackfill(
  index: BackfillTargetIndex,
  sample: Sample,
  input: BackfillCountInput,
): Promise<BackfillCounts> {
  const { workspaceId, selection, evaluators } = input;
  const limit = selection.limit ?? Number.POSITIVE_INFINITY;
  const pairs: Record<string, number> = Object.fromEntries(
    evaluators.map((ref) => [evaluatorId(ref), 0]),
  );
  if ((selection.sampleFraction ?? 1) >= 1 && !selection.unjudgedOnly) {
    const targets = Math.min(limit, await index.count(workspaceId, selection));
    for (const id of Object.keys(pairs)) pairs[id] = targets;
    return { targets, pairs };
  }
  let targets = 0;
  let after: BackfillCursor | null = null;
  for (;;) {
    const page = await backfillPage(index, sample, { ...input, after, limit: countPage });
    for (const { judgedBy } of page.targets.slice(0, limit - targets)) {
      targets += 1;
      for (const id of Object.keys(pairs)) {
        if (!judgedBy.includes(id)) pairs[id] = (pairs[id] ?? 0) + 1;
      }
    }
    if (page.exhausted || targets >= limit) return { targets, pairs };
    after = page.after;
  }
}

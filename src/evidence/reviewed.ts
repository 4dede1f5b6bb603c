import { loadSubject } from '../activities/load-subject.js';
import type { JsonValue } from '../core/index.js';
import { judgedText } from '../evaluators/index.js';
import type { EntityReads, EventLog, TraceInbox } from '../store/index.js';
import type { ReviewedTarget } from '../tuning/index.js';
import { invalidQuery } from './errors.js';
import {
  type AgreementApp,
  type RecordedJudgeTypes,
  type ResolvedSide,
  resolveSides,
} from './sides.js';
import { readSide } from './verdicts.js';

// The targets both a judge version and the reviewers gave verdicts on, as tuning starts from:
// each side read as the agreement reads it (the judge's latest generation, the reviewers' majority;
// a tie is no verdict), with the text the judge reads of the target.

/** Where the reviewed targets are read: the judge version's field against the reviewers'. */
export interface ReviewedQuery {
  readonly workspaceId: string;
  /** `judge@version` and its field. */
  readonly judge: string;
  readonly field: string;
  /** `reviewers:type.field`. */
  readonly against: string;
}

/**
 * The reviewed targets, and the judge's side (its feedback type and field); the judge may be
 * a version recorded in the workspace (`recorded`).
 * @throws AgreementQueryError for sides that cannot be read as asked, or a numeric field.
 */
export async function readReviewedTargets(
  store: EntityReads & EventLog & Pick<TraceInbox, 'traceSpans'>,
  app: AgreementApp,
  query: ReviewedQuery,
  recorded: RecordedJudgeTypes = new Map(),
): Promise<{ targets: ReviewedTarget[]; judgeSide: ResolvedSide }> {
  if (!/^reviewers:[^:]+$/.test(query.against)) {
    throw invalidQuery(`against is reviewers:<type>.<field>, not ${query.against}`);
  }
  const [judgeSide, reviewersSide] = resolveSides(
    app,
    `${query.judge}:${query.field}`,
    query.against,
    recorded,
  );
  if (judgeSide.config.dataType === 'NUMERIC') {
    throw invalidQuery(
      `${judgeSide.text} is numeric: tuning teaches labels (a boolean or a category)`,
    );
  }
  const slices = { workspaceId: query.workspaceId };
  const judged = await readSide(store, judgeSide, slices);
  const reviewed = await readSide(store, reviewersSide, slices);
  const targets: ReviewedTarget[] = [];
  for (const [key, verdict] of judged.byTarget) {
    const reviewers = reviewed.byTarget.get(key);
    if (verdict.value === null || reviewers === undefined || reviewers.value === null) continue;
    const subject = await loadSubject(store, query.workspaceId, verdict.target);
    if (subject === null) continue;
    const reviewersLabel = String(reviewers.value);
    targets.push({
      target: verdict.target,
      text: await judgedText(subject),
      judgeLabel: String(verdict.value),
      reviewersLabel,
      reviewers: reviewers.votes.map((vote) => ({
        raterId: vote.participant,
        label: String(vote.value),
        note: null,
      })),
      expectedVerdict: { [judgeSide.config.field]: labelValue(judgeSide, reviewersLabel) },
    });
  }
  return { targets, judgeSide };
}

/** A label as the judge's field holds it: a boolean field's `true` is true. */
const labelValue = (side: ResolvedSide, label: string): JsonValue =>
  side.config.dataType === 'BOOLEAN' ? label === 'true' : label;

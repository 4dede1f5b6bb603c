// A target both the judge and the reviewers gave verdicts on: what tuning starts from. The caller
// reads it from the store (the reviewers' label is their majority, as evidence counts it); tuning
// itself reads nothing.

import { compareCodePoints } from '../agreement/index.js';
import { type JsonValue, type Target, targetKey } from '../core/index.js';
import { InvalidReviewedTargetsError } from './errors.js';

/** One reviewer's verdict on a target, with the note they left. */
export interface ReviewerVerdict {
  /** The reviewer's participant id (`user:ana`). */
  readonly raterId: string;
  /** Their label on the compared field, as text (`true`, `pass`). */
  readonly label: string;
  readonly note?: string | null;
}

export interface ReviewedTarget {
  readonly target: Target;
  /** What the judge reads of the target: the text a prompt shows as the example. */
  readonly text: string;
  /** The judge's label on the compared field. */
  readonly judgeLabel: string;
  /** The label the reviewers settled on: the one the split stratifies by and examples teach. */
  readonly reviewersLabel: string;
  readonly reviewers: readonly ReviewerVerdict[];
  /** The verdict the judge should have given, in its feedback type's shape: an example's answer. */
  readonly expectedVerdict: { readonly [field: string]: JsonValue };
}

/** Whether the judge and the reviewers disagree on the target. */
export const isDisagreement = (
  reviewed: Pick<ReviewedTarget, 'judgeLabel' | 'reviewersLabel'>,
): boolean => reviewed.judgeLabel !== reviewed.reviewersLabel;

/**
 * The targets keyed and ordered by their key, so that nothing downstream depends on the order the
 * caller read them in.
 * @throws InvalidReviewedTargetsError for a target given twice, without a label or a reviewer.
 */
export function keyedInOrder(
  targets: readonly ReviewedTarget[],
): { key: string; reviewed: ReviewedTarget }[] {
  const seen = new Set<string>();
  const keyed = targets.map((reviewed, index) => {
    const key = targetKey(reviewed.target);
    if (seen.has(key)) {
      throw new InvalidReviewedTargetsError(`target ${key} is given twice (at ${index})`);
    }
    seen.add(key);
    if (reviewed.judgeLabel === '' || reviewed.reviewersLabel === '') {
      throw new InvalidReviewedTargetsError(
        `target ${key} lacks the judge's or the reviewers' label`,
      );
    }
    if (reviewed.reviewers.length === 0) {
      throw new InvalidReviewedTargetsError(`target ${key} has no reviewer's verdict`);
    }
    return { key, reviewed };
  });
  return keyed.sort((a, b) => compareCodePoints(a.key, b.key));
}

/** Groups items by a label, the labels in code-point order. */
export function byLabel<T>(items: readonly T[], labelOf: (item: T) => string): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const label = labelOf(item);
    const group = groups.get(label);
    if (group === undefined) groups.set(label, [item]);
    else group.push(item);
  }
  return [...groups].sort(([a], [b]) => compareCodePoints(a, b));
}

// The choice of few-shot examples from a split's training part. The disagreements come first (the
// judge's mistakes are what the examples are to correct), then the agreements; at each pick the
// label with the fewest examples so far goes next, so the labels stay balanced; an example that
// would pass the character budget is passed over for the next of its label. Held-out targets are
// never candidates.

import { targetKey } from '../core/index.js';
import { InvalidReviewedTargetsError, InvalidTuningOptionError } from './errors.js';
import {
  byLabel,
  isDisagreement,
  keyedInOrder,
  type ReviewedTarget,
} from './reviewed-targets.js';
import { DEFAULT_TUNING_SEED, seededRandom, shuffled } from './seeded.js';
import type { TuningSplit } from './split.js';
import type { JudgeExample } from './version.js';

export const DEFAULT_MAX_EXAMPLES = 8;
export const DEFAULT_MAX_EXAMPLE_CHARS = 8000;

export interface ExampleOptions {
  /** The most examples a version carries (default 8). */
  maxExamples?: number;
  /** The most characters of the examples' texts together (default 8000). */
  maxTotalChars?: number;
  seed?: number;
}

export interface ExampleChoice {
  readonly examples: readonly JudgeExample[];
  /** The training part's disagreements, and how many of them became examples. */
  readonly disagreements: number;
  readonly disagreementsChosen: number;
  /** Candidates passed over because their text did not fit in the characters left. */
  readonly overCharBudget: number;
}

/**
 * Chooses the examples, the same for the same split and seed.
 * @throws InvalidTuningOptionError for a budget that is not a whole number of at least 1.
 * @throws InvalidReviewedTargetsError when a target is in both parts of the split.
 */
export function chooseExamples(
  split: Pick<TuningSplit, 'training' | 'heldOut'>,
  options: ExampleOptions = {},
): ExampleChoice {
  const maxExamples = budgetOf(options.maxExamples, DEFAULT_MAX_EXAMPLES, 'maxExamples');
  const maxChars = budgetOf(options.maxTotalChars, DEFAULT_MAX_EXAMPLE_CHARS, 'maxTotalChars');
  const random = seededRandom(options.seed ?? DEFAULT_TUNING_SEED);
  const training = keyedInOrder(split.training);
  const heldOut = new Set(split.heldOut.map((reviewed) => targetKey(reviewed.target)));
  const both = training.find(({ key }) => heldOut.has(key));
  if (both !== undefined) {
    throw new InvalidReviewedTargetsError(`target ${both.key} is both training and held out`);
  }
  const candidates = training.map(({ reviewed }) => reviewed);
  const phases = [candidates.filter(isDisagreement), candidates.filter((r) => !isDisagreement(r))];
  const chosen: ReviewedTarget[] = [];
  const perLabel = new Map<string, number>();
  let chars = 0;
  let overCharBudget = 0;
  for (const phase of phases) {
    const queues = byLabel(phase, (r) => r.reviewersLabel).map(
      ([label, members]) => [label, shuffled(members, random)] as const,
    );
    for (;;) {
      if (chosen.length === maxExamples) break;
      const open = queues.filter(([, queue]) => queue.length > 0);
      // The least served label next; on a tie the first in code-point order (`open` is sorted).
      const next = open.reduce<(typeof open)[number] | undefined>(
        (best, entry) =>
          best === undefined || (perLabel.get(entry[0]) ?? 0) < (perLabel.get(best[0]) ?? 0)
            ? entry
            : best,
        undefined,
      );
      if (next === undefined) break;
      const [label, queue] = next;
      const candidate = queue.shift() as ReviewedTarget;
      if (chars + candidate.text.length > maxChars) {
        overCharBudget += 1;
        continue;
      }
      chars += candidate.text.length;
      perLabel.set(label, (perLabel.get(label) ?? 0) + 1);
      chosen.push(candidate);
    }
  }
  return {
    examples: chosen.map(exampleOf),
    disagreements: phases[0]?.length ?? 0,
    disagreementsChosen: chosen.filter(isDisagreement).length,
    overCharBudget,
  };
}

/** An example with its provenance: the target, the reviewers' verdicts and notes, the judge's. */
function exampleOf(reviewed: ReviewedTarget): JudgeExample {
  return {
    target: reviewed.target,
    text: reviewed.text,
    expectedVerdict: reviewed.expectedVerdict,
    reviewersLabel: reviewed.reviewersLabel,
    judgeLabel: reviewed.judgeLabel,
    reviewers: reviewed.reviewers.map((r) => ({
      raterId: r.raterId,
      label: r.label,
      note: r.note ?? null,
    })),
  };
}

function budgetOf(value: number | undefined, fallback: number, option: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidTuningOptionError(
      `${option} is a whole number of at least 1, not ${value}`,
      option,
    );
  }
  return value;
}

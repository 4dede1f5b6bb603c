// The choice of few-shot examples from a split's training part. Each reviewers' label has its
// queue: its disagreements (the judge's mistakes, what the examples are to correct) shuffled, then
// its agreements shuffled. At each pick the label with the fewest examples so far goes next, so
// the labels stay balanced; between labels equally served, one whose next is a disagreement, then
// the first in code-point order. An example that would pass the size budget (the characters it
// adds to the prompt) is passed over for the next of its label. Held-out targets are never
// candidates.

import { targetKey } from '../core/index.js';
import { InvalidReviewedTargetsError, InvalidTuningOptionError } from './errors.js';
import { exampleChars } from './prompt.js';
import { byLabel, isDisagreement, keyedInOrder, type ReviewedTarget } from './reviewed-targets.js';
import { DEFAULT_TUNING_SEED, seededRandom, shuffled } from './seeded.js';
import type { TuningSplit } from './split.js';
import type { JudgeExample } from './version.js';

export const DEFAULT_MAX_EXAMPLES = 8;
export const DEFAULT_MAX_EXAMPLE_CHARS = 8000;

export interface ExampleOptions {
  /** The most examples a version carries (default 8). */
  maxExamples?: number;
  /** The most characters the examples add to the prompt together (default 8000). */
  maxTotalChars?: number;
  seed?: number;
}

export interface ExampleChoice {
  /** In the order chosen: the order the prompt shows them in. */
  readonly examples: readonly JudgeExample[];
  /** The training part's disagreements, and how many of them became examples. */
  readonly disagreements: number;
  readonly disagreementsChosen: number;
  /** Candidates passed over because they did not fit in the characters left. */
  readonly overCharBudget: number;
}

/** A label's candidates in the order they are offered, and how far it has got. */
interface LabelQueue {
  readonly candidates: readonly ReviewedTarget[];
  next: number;
  chosen: number;
}

/**
 * Chooses the examples, the same for the same split and seed.
 * @throws InvalidTuningOptionError for a budget that is not a whole number of at least 1, a bad seed.
 * @throws InvalidReviewedTargetsError when a target is in both parts of the split.
 */
export function chooseExamples(
  split: Pick<TuningSplit, 'training' | 'heldOut'>,
  options: ExampleOptions = {},
): ExampleChoice {
  const maxExamples = budgetOf(options.maxExamples, DEFAULT_MAX_EXAMPLES, 'maxExamples');
  const maxChars = budgetOf(options.maxTotalChars, DEFAULT_MAX_EXAMPLE_CHARS, 'maxTotalChars');
  const random = seededRandom(options.seed ?? DEFAULT_TUNING_SEED);
  const candidates = trainingOnly(split);
  const queues: LabelQueue[] = byLabel(candidates, (r) => r.reviewersLabel).map(([, members]) => ({
    candidates: [
      ...shuffled(members.filter(isDisagreement), random),
      ...shuffled(
        members.filter((r) => !isDisagreement(r)),
        random,
      ),
    ],
    next: 0,
    chosen: 0,
  }));
  const examples: JudgeExample[] = [];
  let chars = 0;
  let overCharBudget = 0;
  for (let queue = nextQueue(queues); queue !== undefined; queue = nextQueue(queues)) {
    if (examples.length === maxExamples) break;
    const example = exampleOf(queue.candidates[queue.next] as ReviewedTarget);
    queue.next += 1;
    const size = exampleChars(example);
    if (chars + size > maxChars) {
      overCharBudget += 1;
      continue;
    }
    chars += size;
    queue.chosen += 1;
    examples.push(example);
  }
  return {
    examples,
    disagreements: candidates.filter(isDisagreement).length,
    disagreementsChosen: examples.filter(isDisagreement).length,
    overCharBudget,
  };
}

/** The training part, keyed in order; refused when a target is also held out. */
function trainingOnly(split: Pick<TuningSplit, 'training' | 'heldOut'>): ReviewedTarget[] {
  const heldOut = new Set(split.heldOut.map((reviewed) => targetKey(reviewed.target)));
  return keyedInOrder(split.training).map(({ key, reviewed }) => {
    if (heldOut.has(key)) {
      throw new InvalidReviewedTargetsError(`target ${key} is both training and held out`);
    }
    return reviewed;
  });
}

/**
 * The label to offer next: the least served with candidates left; on a tie one whose next is a
 * disagreement, then the first (the queues are in code-point order of their labels).
 */
function nextQueue(queues: readonly LabelQueue[]): LabelQueue | undefined {
  let best: LabelQueue | undefined;
  for (const queue of queues) {
    if (queue.next === queue.candidates.length) continue;
    if (best === undefined || rank(queue) < rank(best)) best = queue;
  }
  return best;
}

/** Fewer examples first, then a disagreement next: the order of `nextQueue`'s preference. */
const rank = (queue: LabelQueue): number =>
  queue.chosen * 2 + (isDisagreement(queue.candidates[queue.next] as ReviewedTarget) ? 0 : 1);

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

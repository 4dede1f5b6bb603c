// A candidate judge version from a split and its examples: the base version's rubric, model and
// feedback type with the examples chosen, and the held-out targets its backtest is to judge.

import type { ExampleChoice } from './examples.js';
import type { TuningSplit } from './split.js';
import { type JudgeVersion, parseJudgeVersion } from './version.js';

/** What a candidate takes from the version it is tuned from, and who records it when. */
export type CandidateBase = Omit<JudgeVersion, 'examples' | 'heldOut'>;

/**
 * The candidate, validated as every recorded version is.
 * @throws InvalidJudgeVersionError when it does not validate: an example held out among them.
 */
export function candidateVersion(
  base: CandidateBase,
  split: Pick<TuningSplit, 'heldOut'>,
  choice: Pick<ExampleChoice, 'examples'>,
): JudgeVersion {
  return parseJudgeVersion({
    ...base,
    examples: choice.examples,
    heldOut: split.heldOut.map((reviewed) => reviewed.target),
  });
}

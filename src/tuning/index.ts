// The public surface of tuning a judge from reviewers' verdicts: the seeded, stratified split into
// a training and a held-out part, the choice of few-shot examples from the training part, a tuned
// version as data, and its prompt. Pure: it imports only src/core and src/agreement, reads and
// writes nothing; the caller brings the reviewed targets and records the version.

export { type CandidateBase, candidateVersion } from './candidate.js';
export {
  InvalidJudgeVersionError,
  InvalidReviewedTargetsError,
  InvalidTuningOptionError,
  type JudgeVersionProblem,
  type JudgeVersionProblemCode,
  TooFewTargetsError,
} from './errors.js';
export {
  chooseExamples,
  DEFAULT_MAX_EXAMPLE_CHARS,
  DEFAULT_MAX_EXAMPLES,
  type ExampleChoice,
  type ExampleOptions,
} from './examples.js';
export { type ChatMessage, exampleChars, judgeMessages, promptChars } from './prompt.js';
export { isDisagreement, type ReviewedTarget, type ReviewerVerdict } from './reviewed-targets.js';
export { DEFAULT_TUNING_SEED } from './seeded.js';
export {
  DEFAULT_HELD_OUT_SHARE,
  DEFAULT_MINIMUM_PER_PART,
  type SplitOptions,
  splitTargets,
  type TuningSplit,
} from './split.js';
export { JudgeExample, JudgeVersion, parseJudgeVersion } from './version.js';

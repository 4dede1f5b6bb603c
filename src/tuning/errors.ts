// The errors of tuning. Each is thrown for input nothing can be tuned from, before anything is
// chosen: a caller's mistake or too little data, said with the figures that decided it.

import type { JudgeVersionProblem } from '../core/index.js';

/** Thrown when an option is out of its range: a held-out share, a budget, a seed. */
export class InvalidTuningOptionError extends Error {
  override readonly name = 'InvalidTuningOptionError';
  constructor(
    message: string,
    /** The option's name, as the caller passed it (`heldOutShare`). */
    readonly option: string,
  ) {
    super(message);
  }
}

/** Thrown when the reviewed targets are not a set: a target twice, or an empty label. */
export class InvalidReviewedTargetsError extends Error {
  override readonly name = 'InvalidReviewedTargetsError';
}

/** Thrown when there are too few reviewed targets for both parts to hold the minimum. */
export class TooFewTargetsError extends Error {
  override readonly name = 'TooFewTargetsError';
  constructor(
    readonly count: number,
    readonly minimumPerPart: number,
    /** How many each part would hold: the training part's and the held-out part's. */
    readonly parts: { readonly training: number; readonly heldOut: number },
  ) {
    super(
      `${count} reviewed target(s) split into ${parts.training} for training and ${parts.heldOut} held out; each part needs at least ${minimumPerPart}`,
    );
  }
}

export type { JudgeVersionProblem, JudgeVersionProblemCode } from '../core/index.js';

/** Thrown when a tuned judge version does not validate; it lists every problem found. */
export class InvalidJudgeVersionError extends Error {
  override readonly name = 'InvalidJudgeVersionError';
  constructor(readonly problems: readonly JudgeVersionProblem[]) {
    super(`invalid judge version: ${problems.map((p) => p.message).join('; ')}`);
  }
}

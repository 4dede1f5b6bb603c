// The core's errors. Rejections are values (`rejections.ts`); these are thrown only for a
// definition that can never work, so the mistake fails at startup rather than at the first use.

/** Thrown when a feedback type's definition is invalid, or its name is taken by another type. */
export class InvalidFeedbackTypeError extends Error {
  override readonly name = 'InvalidFeedbackTypeError';
}

/** Thrown when a store or client is given a size limit that is unknown or not a whole number. */
export class InvalidLimitsError extends Error {
  override readonly name = 'InvalidLimitsError';
}

/** Thrown when a duration (a rule's `idleFor`) is not one: `durationMs('30x')`. */
export class InvalidDurationError extends Error {
  override readonly name = 'InvalidDurationError';
}

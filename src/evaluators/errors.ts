// The evaluators' errors. Each names what was wrong, so a mistake fails at startup with a fix.

/** Thrown when an evaluator's definition is invalid, or a version is registered twice. */
export class InvalidEvaluatorError extends Error {
  override readonly name = 'InvalidEvaluatorError';
}

/** Thrown when a judge's call fails; `retryable` says whether trying again may help. */
export class JudgeRequestError extends Error {
  override readonly name = 'JudgeRequestError';
  constructor(
    message: string,
    readonly retryable: boolean,
    /** How long the endpoint asked to wait before the next try (a 429's Retry-After). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

import { ScoreMappingError, ScoreSinkError } from '../errors.js';

/** A Langfuse request failed as a whole: no response, or a status that is not success. */
export class LangfuseRequestError extends ScoreSinkError {
  override readonly name = 'LangfuseRequestError';
  constructor(
    message: string,
    /** The request, as `METHOD /path`. */
    readonly operation: string,
    /** The HTTP status, or null when no response arrived (timeout, network). */
    readonly status: number | null,
    retryable: boolean,
    retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, retryable, retryAfterMs, options);
  }
}

/** One score event Langfuse refused in a 207 answer. */
export interface IngestionFailure {
  readonly scoreId: string;
  readonly name: string;
  readonly status: number;
  readonly message: string;
  /** Whether sending this score again may succeed (5xx, 408, 429), or it is refused for good. */
  readonly retryable: boolean;
}

/**
 * Langfuse answered 207 with per-event errors. The other scores of the call were accepted.
 * `retryable` is true only when every failure is, since a terminal one fails again however
 * often it is sent; `failures` tells which scores to retry and which to give up on.
 */
export class LangfuseIngestionError extends ScoreSinkError {
  override readonly name = 'LangfuseIngestionError';
  constructor(
    readonly failures: readonly IngestionFailure[],
    /** How many scores the call sent. */
    readonly sent: number,
  ) {
    super(
      `Langfuse refused ${failures.length} of ${sent} scores: ${failures
        .map((f) => `${f.name} (${f.scoreId}): ${f.status} ${f.message}`)
        .join('; ')}`,
      failures.every((failure) => failure.retryable),
    );
  }
}

/** A score config name Langfuse cannot hold: 1–35 characters of `[A-Za-z0-9_ .()-]`. */
export class ScoreConfigNameError extends ScoreMappingError {
  override readonly name = 'ScoreConfigNameError';
}

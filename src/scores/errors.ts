// The errors of the scores module. Each says what was wrong with which input; none is thrown after
// anything was sent or stored, so a caller that catches one knows nothing changed.

/** A schema or type name cannot be turned into score configs. */
export class ScoreMappingError extends Error {
  override readonly name: string = 'ScoreMappingError';
}

/** A value does not satisfy its schema on a field that would be scored. */
export class InvalidScoreValueError extends Error {
  override readonly name = 'InvalidScoreValueError';
  constructor(
    message: string,
    /** The failing field, when the value is an object. */
    readonly field: string | null,
    /** What the schema reported, one line per problem. */
    readonly problems: readonly string[],
  ) {
    super(message);
  }
}

/** A score does not have the shape `Score` requires, or a sink cannot hold it. */
export class InvalidScoreError extends Error {
  override readonly name = 'InvalidScoreError';
  constructor(
    message: string,
    /** One line per problem, each naming the score it is about. */
    readonly problems: readonly string[],
  ) {
    super(message);
  }
}

/**
 * `InMemoryScoreConfigStore.create` or `FileScoreConfigStore.create` was given a name it holds
 * already, archived or not.
 */
export class ScoreConfigExistsError extends Error {
  override readonly name = 'ScoreConfigExistsError';
  constructor(readonly configName: string) {
    super(`a score config named '${configName}' exists already`);
  }
}

/** `syncScoreConfigs` was asked to both create and retire the same names; it sent nothing. */
export class ScoreConfigSyncConflictError extends Error {
  override readonly name = 'ScoreConfigSyncConflictError';
  constructor(
    /** The names given both as configs to create and as retired, in the order given. */
    readonly configNames: readonly string[],
  ) {
    super(
      `score configs cannot be both created and retired: ${configNames.map((n) => `'${n}'`).join(', ')}`,
    );
  }
}

/**
 * A sink or store failed to reach its backend, or the backend refused what was sent. The flags
 * let a caller that owns retries (a Temporal activity) classify it without knowing the backend.
 */
export class ScoreSinkError extends Error {
  override readonly name: string = 'ScoreSinkError';
  constructor(
    message: string,
    /** Whether sending the same request again may succeed. */
    readonly retryable: boolean,
    /** How long the backend asked the caller to wait before retrying, when it said. */
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** An adapter broke an obligation of its port; thrown by the contract suites. */
export class ContractViolationError extends Error {
  override readonly name = 'ContractViolationError';
}

/** `an object`, `a string`: a word with its indefinite article. */
export const withArticle = (word: string): string =>
  /^(?:[aeio]|u(?!s|ni))/i.test(word) ? `an ${word}` : `a ${word}`;

/**
 * A zod error's issues as `field: message` lines, the field as a dotted path (`words.0`); an issue
 * of the whole value is its message alone. The scores module's one way of writing them.
 */
export function problemsOf(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  whole = '',
): string[] {
  return error.issues.map((issue) => {
    const field = issue.path.map(String).join('.') || whole;
    return field === '' ? issue.message : `${field}: ${issue.message}`;
  });
}

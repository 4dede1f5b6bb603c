// The configuration's errors: each says what is wrong and where, in one line a person can act on.

/** Thrown when an app definition or the environment holds a mistake; the message says which. */
export class InvalidConfigError extends Error {
  override readonly name = 'InvalidConfigError';
}

/** Thrown when a config file cannot be loaded or does not define a valid app. */
export class ConfigFileError extends Error {
  override readonly name = 'ConfigFileError';
  constructor(
    /** The file, as the user named it (or the default's name). */
    readonly path: string,
    /** What is wrong with it, in one line. */
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${path}: ${problem}`, options);
  }
}

// The errors of the file adapters.

/** A line of a score config file is not one `FileScoreConfigStore` writes; nothing was changed. */
export class ScoreConfigFileError extends Error {
  override readonly name = 'ScoreConfigFileError';
  constructor(
    readonly path: string,
    /** The line's number, from 1. */
    readonly line: number,
    /** What is wrong with it. */
    readonly problem: string,
  ) {
    super(`${path}:${line}: not a score config entry (${problem})`);
  }
}

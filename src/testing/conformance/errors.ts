/**
 * Thrown when a case file cannot be read as one: missing, not JSON, or not of the case file's
 * shape. The message is one line that starts with the file, then the first problem.
 */
export class CaseFileError extends Error {
  override readonly name = 'CaseFileError';

  constructor(
    readonly file: string,
    /** What is wrong, without the file: `case 3 ("…"): expect.outcome: expected object, got 3`. */
    readonly problem: string,
    options?: ErrorOptions,
  ) {
    super(`${file}: ${problem}`, options);
  }
}

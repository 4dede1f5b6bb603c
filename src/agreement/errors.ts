// The errors of the agreement statistics. They are thrown only for input no figure can be computed
// from (a caller's mistake); data that merely leave a figure undefined give an `UndefinedFigure`.

/** Thrown when the two sides differ in length, or a label or a number is not one. */
export class AgreementInputError extends Error {
  override readonly name = 'AgreementInputError';
  constructor(
    message: string,
    /** The position of the offending value in its side, when there is one. */
    readonly index: number | null = null,
  ) {
    super(message);
  }
}

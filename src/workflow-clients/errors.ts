// The workflow clients' errors.

/** Thrown, before anything reaches Temporal, for a request that can never succeed. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

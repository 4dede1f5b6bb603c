// The HTTP client (`EvalflowClient`): the API's routes as typed methods, with retries,
// Idempotency-Keys, typed refusals and resumable event streams. It loads nothing of the server.
export { EvalflowApiError, EvalflowNetworkError } from './errors.js';
export {
  EvalflowClient,
  type EvalflowClientOptions,
  type WatchOptions,
} from './evalflow-client.js';
export { EventStream, type EventStreamOptions } from './event-stream.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export type { CallOptions } from './transport.js';
export type * from './types.js';

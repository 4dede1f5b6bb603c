import type { Envelope } from '../core/index.js';
import { EvalflowApiError, EvalflowNetworkError, rejectionOf } from './errors.js';
import { backoffMs, isRetryableStatus, retryAfterMs, sleep } from './retry.js';
import { SseParser } from './sse.js';
import type { Transport } from './transport.js';

// The log as server-sent events, resumed across dropped connections: each event's id is its
// seq, and a reconnection sends the last one seen as Last-Event-ID, so nothing is missed or
// seen twice.

export interface EventStreamOptions {
  /** One thread's events (its feedback included) rather than the whole workspace's. */
  threadId?: string;
  /** Start after this seq (default 0: from the first event). */
  after?: number;
  /** Ends the stream, like `close()`. */
  signal?: AbortSignal;
}

/**
 * The events as an async iterator of envelopes: `for await (const envelope of stream)`. It
 * reconnects after a dropped connection, a 5xx or a 429 (with the client's retry policy, counted
 * afresh after each successful connection), and ends with `close()`, an abort or a `break`. A
 * refusal (401, 403, 404) or the last failed reconnection is thrown from the loop.
 */
export class EventStream implements AsyncIterable<Envelope> {
  private readonly controller = new AbortController();
  private last: number | null;
  private readonly iterator: AsyncGenerator<Envelope>;

  constructor(
    private readonly transport: Transport,
    private readonly path: string,
    options: EventStreamOptions = {},
  ) {
    this.last = options.after ?? null;
    const outer = options.signal;
    if (outer?.aborted) this.controller.abort(outer.reason);
    outer?.addEventListener('abort', () => this.close(), { once: true });
    this.iterator = this.run();
  }

  /** The seq of the last event received (or the `after` it started from); null before any. */
  get lastEventId(): number | null {
    return this.last;
  }

  /** Stops the stream: the connection is closed and the iterator ends. */
  close(): void {
    this.controller.abort();
  }

  [Symbol.asyncIterator](): AsyncGenerator<Envelope> {
    return this.iterator;
  }

  private async *run(): AsyncGenerator<Envelope> {
    const policy = this.transport.options.retry;
    const signal = this.controller.signal;
    let failures = 0;
    const label = `GET ${this.path}`;
    /** After a failed connection: waits to try again, or says why not. */
    const again = async (delay: number | null, failure: () => Error) => {
      failures += 1;
      if (failures >= Math.max(1, policy.maxAttempts)) throw failure();
      await sleep(delay ?? backoffMs(policy, failures), signal);
    };
    try {
      while (!signal.aborted) {
        let response: Response;
        try {
          response = await this.transport.options.fetch(
            this.transport.url(this.path, this.last === null ? {} : { after: this.last }),
            {
              headers: this.transport.headers({
                accept: 'text/event-stream',
                ...(this.last !== null ? { 'last-event-id': String(this.last) } : {}),
              }),
              signal,
            },
          );
        } catch (error) {
          if (signal.aborted) return;
          await again(null, () => new EvalflowNetworkError(label, failures, { cause: error }));
          continue;
        }
        if (!response.ok) {
          const text = await response.text().catch(() => '');
          const refusal = new EvalflowApiError(
            response.status,
            rejectionOf(response.status, text),
            label,
            response.headers.get('x-request-id'),
          );
          if (!isRetryableStatus(response.status)) throw refusal;
          await again(retryAfterMs(response.headers.get('retry-after')), () => refusal);
          continue;
        }
        failures = 0;
        try {
          yield* this.read(response);
        } catch (error) {
          if (signal.aborted) return;
          // An event that is not JSON is the server's bug: reading it again would not help.
          if (error instanceof SyntaxError) throw error;
          // A dropped stream: reconnect from the last event seen.
          await again(null, () => new EvalflowNetworkError(label, failures, { cause: error }));
          continue;
        }
        if (signal.aborted) return;
        // The server ended the stream (it never does on purpose): reconnect from the last event.
        await again(
          null,
          () => new EvalflowNetworkError(label, failures, { cause: 'the stream ended' }),
        );
      }
    } finally {
      this.controller.abort();
    }
  }

  private async *read(response: Response): AsyncGenerator<Envelope> {
    if (response.body === null) return;
    const parser = new SseParser();
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          const envelope = JSON.parse(event.data) as Envelope;
          // The id is the seq; an event at or before the last one seen is not delivered again.
          const seq = event.id !== undefined ? Number(event.id) : envelope.seq;
          if (this.last !== null && seq <= this.last) continue;
          this.last = seq;
          yield envelope;
        }
      }
    } finally {
      await reader.cancel().catch(() => {});
    }
  }
}

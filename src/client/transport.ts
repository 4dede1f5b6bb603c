import { EvalflowApiError, EvalflowNetworkError, rejectionOf } from './errors.js';
import { backoffMs, isRetryableStatus, type RetryPolicy, retryAfterMs, sleep } from './retry.js';

// One request to the API, with its key, its Idempotency-Key when it writes, and its retries.

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  retry: RetryPolicy;
  /** Each attempt's limit; one that runs out counts as no answer, and is retried. */
  timeoutMs: number;
  fetch: typeof fetch;
  headers: Readonly<Record<string, string>>;
}

/** What every method takes besides its arguments. */
export interface CallOptions {
  /** Ends the call (and its waits between retries) with the signal's reason. */
  signal?: AbortSignal;
  /**
   * A write's Idempotency-Key, sent on each of its attempts (default: a new UUID per call). Give
   * your own to make a call that may be repeated later, after a crash say, record once.
   */
  idempotencyKey?: string;
}

/** A query's values; a list is sent as the parameter repeated, once per item. */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path, its segments encoded. */
  path: string;
  query?: Query;
  body?: unknown;
  options?: CallOptions | undefined;
  /** Statuses that are answers rather than refusals (default: any 2xx). */
  answers?: readonly number[];
  /** False for a probe: one attempt, whatever happens. */
  retry?: boolean;
}

export class Transport {
  constructor(readonly options: TransportOptions) {}

  /** Sends a call, retrying what a retry may fix; the answer's JSON, or a typed error. */
  async send<T>(call: Call): Promise<T> {
    const { retry: policy } = this.options;
    const label = `${call.method} ${call.path}`;
    const signal = call.options?.signal;
    // A write keeps one key across its retries, so the server records it once.
    const key =
      call.method === 'GET' ? undefined : (call.options?.idempotencyKey ?? crypto.randomUUID());
    const headers = this.headers({
      accept: 'application/json',
      ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(key !== undefined ? { 'idempotency-key': key } : {}),
    });
    const body = call.body !== undefined ? JSON.stringify(call.body) : undefined;
    const attempts = call.retry === false ? 1 : Math.max(1, policy.maxAttempts);
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      let text: string;
      try {
        const timeout = AbortSignal.timeout(this.options.timeoutMs);
        response = await this.options.fetch(this.url(call.path, call.query), {
          method: call.method,
          headers,
          ...(body !== undefined ? { body } : {}),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (attempt >= attempts) throw new EvalflowNetworkError(label, attempt, { cause: error });
        await sleep(backoffMs(policy, attempt), signal);
        continue;
      }
      const answered = call.answers ? call.answers.includes(response.status) : response.ok;
      if (answered) return (text === '' ? undefined : JSON.parse(text)) as T;
      if (attempt < attempts && isRetryableStatus(response.status)) {
        const asked = retryAfterMs(response.headers.get('retry-after'));
        if (asked === null || asked <= policy.maxRetryAfterMs) {
          await sleep(asked ?? backoffMs(policy, attempt), signal);
          continue;
        }
      }
      throw new EvalflowApiError(
        response.status,
        rejectionOf(response.status, text),
        label,
        response.headers.get('x-request-id'),
      );
    }
  }

  /** The URL of a path on the API, with its query's defined values. */
  url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) for (const item of value) params.append(name, item);
      else if (value !== undefined) params.set(name, String(value));
    }
    const search = params.size > 0 ? `?${params}` : '';
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}${search}`;
  }

  /** The headers every request carries, with `extra`. */
  headers(extra: Record<string, string>): Record<string, string> {
    return {
      ...this.options.headers,
      authorization: `Bearer ${this.options.apiKey}`,
      ...extra,
    };
  }
}

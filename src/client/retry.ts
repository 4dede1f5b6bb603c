// When the HTTP client tries again: a 5xx, a 429 or no answer, after a jittered, capped,
// exponential delay, or after the server's Retry-After when it sent one.

export interface RetryPolicy {
  /** Attempts in all, the first included (default 4); 1 never retries. */
  maxAttempts: number;
  /** The delay before the first retry, doubling after each (default 250 ms). */
  initialDelayMs: number;
  /** The cap on that delay (default 8 s). */
  maxDelayMs: number;
  /**
   * The longest Retry-After honoured (default 60 s): a server asking for longer ends the
   * retries, and the caller gets the refusal rather than a call that hangs for minutes.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 4,
  initialDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Statuses worth another attempt: the server's faults and its rate limit. */
export const isRetryableStatus = (status: number): boolean => status === 429 || status >= 500;

/**
 * The delay before retry `retry` (1 for the first): between half and all of the doubled delay,
 * so that clients refused together do not come back together.
 */
export function backoffMs(policy: RetryPolicy, retry: number, random = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** A Retry-After header in milliseconds: delay-seconds or an HTTP date; null when absent or bad. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Every HTTP date form starts with the day's name; Date.parse alone would take "-1" as a year.
  if (!/^[A-Za-z]{3}/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Waits `ms`; an abort ends the wait early with the signal's reason. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

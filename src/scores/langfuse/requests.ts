// Every SDK call goes through `callLangfuse`: the SDK's own retries are turned off so the caller
// (a Temporal activity) owns them, and SDK errors become `LangfuseRequestError`s that say whether
// and when to retry.
import { LangfuseRequestError } from './errors.js';

export const DEFAULT_TIMEOUT_SECONDS = 30;

export interface RequestOptions {
  readonly maxRetries: 0;
  readonly timeoutInSeconds: number;
}

export function requestOptions(timeoutInSeconds: number): RequestOptions {
  return { maxRetries: 0, timeoutInSeconds };
}

/** Whether a request that got this status may succeed when sent again. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export async function callLangfuse<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asRequestError(operation, error);
  }
}

/** The shape of the SDK's `LangfuseAPIError`, which `@langfuse/client` does not export. */
interface SdkApiError {
  statusCode?: number;
  body?: unknown;
  rawResponse?: { headers?: { get(name: string): string | null } };
}

export function asRequestError(operation: string, error: unknown): LangfuseRequestError {
  const sdk = (typeof error === 'object' && error !== null ? error : {}) as SdkApiError;
  const status = typeof sdk.statusCode === 'number' ? sdk.statusCode : null;
  if (status === null) {
    const reason = error instanceof Error ? error.message : String(error);
    return new LangfuseRequestError(
      `${operation} got no response (timeout or network error): ${reason}`,
      operation,
      null,
      true,
      undefined,
      { cause: error },
    );
  }
  const retryAfterMs =
    status === 429 ? retryAfter(sdk.rawResponse?.headers?.get('retry-after') ?? null) : undefined;
  const wait = retryAfterMs === undefined ? '' : ` (retry after ${retryAfterMs} ms)`;
  return new LangfuseRequestError(
    `${operation} failed with HTTP ${status}: ${bodyMessage(sdk.body)}${wait}`,
    operation,
    status,
    retryableStatus(status),
    retryAfterMs,
    { cause: error },
  );
}

/** `Retry-After` as milliseconds: delta-seconds, or an HTTP date. */
export function retryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function bodyMessage(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'message' in body) {
    return String((body as { message: unknown }).message);
  }
  return typeof body === 'string' ? body : JSON.stringify(body ?? null);
}

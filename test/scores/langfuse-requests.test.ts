import { describe, expect, it } from 'vitest';
import { LangfuseRequestError, retryAfter } from '../../src/scores/langfuse/index.js';
import { asRequestError, retryableStatus } from '../../src/scores/langfuse/requests.js';

// How an SDK failure becomes a LangfuseRequestError: whether to retry, when, and what to say.
const operation = 'POST /api/public/ingestion';
/** The shape of the SDK's API error: a status, a body and the raw response's headers. */
const apiError = (statusCode: number, body: unknown, headers: Record<string, string> = {}) => ({
  statusCode,
  body,
  rawResponse: { headers: new Headers(headers) },
});

describe('retryableStatus', () => {
  it('retries a timeout, a rate limit and server errors, nothing else', () => {
    expect([408, 429, 500, 503].map(retryableStatus)).toEqual([true, true, true, true]);
    expect([400, 401, 404, 409, 499].map(retryableStatus)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('asRequestError', () => {
  it('says a request without a response may be retried, keeping the cause', () => {
    const cause = new Error('socket hang up');
    const error = asRequestError(operation, cause);
    expect(error).toBeInstanceOf(LangfuseRequestError);
    expect(error).toMatchObject({
      message: `${operation} got no response (timeout or network error): socket hang up`,
      operation,
      status: null,
      retryable: true,
      retryAfterMs: undefined,
    });
    expect(error.cause).toBe(cause);
    expect(asRequestError(operation, 'boom').message).toContain('network error): boom');
  });

  it("states the status and the body's message, keeping the cause", () => {
    const cause = apiError(400, { message: 'name is required' });
    const error = asRequestError(operation, cause);
    expect(error).toMatchObject({
      message: `${operation} failed with HTTP 400: name is required`,
      status: 400,
      retryable: false,
      retryAfterMs: undefined,
    });
    expect(error.cause).toBe(cause);
  });

  it('states a body without a message as it came: text as is, anything else as JSON', () => {
    const message = (body: unknown) => asRequestError(operation, apiError(500, body)).message;
    expect(message('upstream down')).toBe(`${operation} failed with HTTP 500: upstream down`);
    expect(message({ error: 'oops' })).toBe(`${operation} failed with HTTP 500: {"error":"oops"}`);
    expect(message(null)).toBe(`${operation} failed with HTTP 500: null`);
    expect(message(undefined)).toBe(`${operation} failed with HTTP 500: null`);
    expect(message(7)).toBe(`${operation} failed with HTTP 500: 7`);
  });

  it("reads a 429's Retry-After into the error and its message", () => {
    const error = asRequestError(operation, apiError(429, 'slow down', { 'retry-after': '2' }));
    expect(error).toMatchObject({
      message: `${operation} failed with HTTP 429: slow down (retry after 2000 ms)`,
      retryable: true,
      retryAfterMs: 2000,
    });
  });

  it('reads Retry-After on a 429 only, and copes with a response without headers', () => {
    const unavailable = asRequestError(operation, apiError(503, 'busy', { 'retry-after': '2' }));
    expect(unavailable.retryAfterMs).toBeUndefined();
    expect(unavailable.message).toBe(`${operation} failed with HTTP 503: busy`);
    expect(asRequestError(operation, { statusCode: 429, body: 'x' }).retryAfterMs).toBeUndefined();
    const headless = { statusCode: 429, body: 'x', rawResponse: {} };
    expect(asRequestError(operation, headless).retryAfterMs).toBeUndefined();
  });
});

describe('retryAfter', () => {
  const now = Date.parse('2026-09-29T12:00:00Z');

  it('reads whole seconds around spaces, and nothing that only contains digits', () => {
    expect(retryAfter(' 2 ', now)).toBe(2000);
    expect(retryAfter('x5', now)).toBeUndefined();
    expect(retryAfter('5x', now)).toBeUndefined();
    expect(retryAfter('', now)).toBeUndefined();
  });
});

import type { ApiRejection, ApiRejectionType } from './types.js';

// The HTTP client's errors: a refusal the API answered, or no answer at all.

/**
 * Thrown when the API refuses a request (any status but 2xx), after the retries a 5xx or a 429
 * earns. Carries the status and the rejection body; `type` says which refusal it is.
 */
export class EvalflowApiError extends Error {
  override readonly name = 'EvalflowApiError';
  readonly type: ApiRejectionType;
  /** For `not_found`: what is missing (`run`, `thread`, ...) and its id. */
  readonly entity: string | undefined;
  readonly id: string | undefined;
  /** For `validation_failed`: the issues found. */
  readonly errors: unknown[] | undefined;

  constructor(
    readonly status: number,
    readonly body: ApiRejection,
    /** The request this answers, as `METHOD /path`. */
    readonly request: string,
    /** The API's `x-request-id`, to find the request in its logs. */
    readonly requestId: string | null,
  ) {
    super(body.message);
    this.type = body.type;
    this.entity = body.entity;
    this.id = body.id;
    this.errors = body.errors;
  }
}

/** Thrown when no answer came (refused, reset, timed out) after the last attempt. */
export class EvalflowNetworkError extends Error {
  override readonly name = 'EvalflowNetworkError';
  constructor(
    /** The request, as `METHOD /path`. */
    readonly request: string,
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    super(
      `${request}: no answer after ${attempts} attempt${attempts === 1 ? '' : 's'} (${describe(options.cause)})`,
      options,
    );
  }
}

const describe = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause);
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED, a reset socket) as its cause.
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
};

const FALLBACK: Record<number, ApiRejectionType> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'rate_limited',
  503: 'unavailable',
};

/**
 * The rejection in an answer's text; an answer that is not one (a proxy's HTML page, say) gets
 * the refusal its status stands for, with the start of the text as its message.
 */
export function rejectionOf(status: number, text: string): ApiRejection {
  try {
    const body = JSON.parse(text) as Partial<ApiRejection> | null;
    if (typeof body?.type === 'string' && typeof body.message === 'string')
      return body as ApiRejection;
  } catch {
    // Not JSON: described below.
  }
  return {
    type: FALLBACK[status] ?? (status >= 500 ? 'internal' : 'bad_request'),
    message: `HTTP ${status}${text.trim() === '' ? '' : `: ${text.trim().slice(0, 200)}`}`,
  };
}

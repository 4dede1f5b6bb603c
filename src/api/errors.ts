import { z } from 'zod';
import { type Rejection, type RejectionType, rejectionTypes } from '../core/index.js';

// One map from each refusal to its HTTP status, and the bodies: the core's rejection shapes, plus
// the HTTP-only refusals (malformed request, no credential, too large, a body of no type it
// reads, too many).

export const HTTP_STATUS: Record<RejectionType, number> = {
  not_found: 404,
  invalid_state: 409,
  validation_failed: 422,
  forbidden: 403,
  conflict: 409,
};

/** Refusals that only HTTP has, with their statuses. */
export const HTTP_ONLY = {
  bad_request: 400,
  unauthenticated: 401,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type HttpOnlyType = keyof typeof HTTP_ONLY;

export const RejectionBody = z.object({
  type: z.enum([...rejectionTypes, ...(Object.keys(HTTP_ONLY) as HttpOnlyType[])] as [
    RejectionType | HttpOnlyType,
    ...(RejectionType | HttpOnlyType)[],
  ]),
  message: z.string(),
  entity: z.string().optional(),
  id: z.string().optional(),
  errors: z.array(z.unknown()).optional(),
});
export type RejectionBody = z.output<typeof RejectionBody>;

/** Thrown by a route to answer with a refusal; the error handler sends it. */
export class HttpRefusal extends Error {
  override readonly name = 'HttpRefusal';
  constructor(
    readonly status: number,
    readonly body: RejectionBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

export const refuse = (rejection: Rejection): HttpRefusal =>
  new HttpRefusal(HTTP_STATUS[rejection.type], rejection);

export const httpOnly = (
  type: HttpOnlyType,
  message: string,
  headers: Record<string, string> = {},
): HttpRefusal => new HttpRefusal(HTTP_ONLY[type], { type, message }, headers);

/** The statuses and bodies every route may answer besides its own (500 and 503 are faults). */
export const refusalResponses = {
  400: RejectionBody,
  401: RejectionBody,
  403: RejectionBody,
  404: RejectionBody,
  409: RejectionBody,
  413: RejectionBody,
  415: RejectionBody,
  422: RejectionBody,
  429: RejectionBody,
} as const;

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { StoreUnavailableError } from '../../store/index.js';
import { HttpRefusal, httpOnly } from '../errors.js';

// Every failure answers with the API's refusal body and its status: a route's refusal as it is,
// a body or path the schemas refuse as 422, Fastify's own 4xx as 400 (413 for a body too large,
// 415 for a body without a content type it reads),
// the store being down as 503 with Retry-After, anything else as 500 (logged, never shown).

export const errorAnswers = fastifyPlugin(
  async (api) => {
    api.setErrorHandler((error, request, reply) => {
      const refusal = asRefusal(error);
      if (refusal.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.code(refusal.status).headers(refusal.headers).send(refusal.body);
    });
    api.setNotFoundHandler((request, reply) =>
      reply.code(404).send({
        type: 'not_found',
        entity: 'route',
        id: request.url,
        message: `no route ${request.method} ${request.url}`,
      }),
    );
  },
  { name: 'evalflow-errors' },
);

/**
 * Fastify's `frameworkErrors`: a path the router cannot read (bad percent-encoding, an overlong
 * parameter) is the caller's mistake, a documented 400 with the API's body, not Fastify's own
 * 400 or 414.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const refusal = httpOnly('bad_request', error.message);
  void reply.code(refusal.status).header('x-request-id', request.id).send(refusal.body);
}

export function asRefusal(error: unknown): HttpRefusal {
  if (error instanceof HttpRefusal) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    return new HttpRefusal(422, {
      type: 'validation_failed',
      message: `invalid request: ${error.message}`,
      errors: JSON.parse(JSON.stringify(error.validation)),
    });
  }
  const code = (error as { code?: string }).code;
  const status = (error as { statusCode?: number }).statusCode;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return httpOnly('too_large', (error as Error).message);
  if (status === 415) {
    return httpOnly(
      'unsupported_media_type',
      'Unsupported Media Type: send the body as JSON, with Content-Type: application/json',
    );
  }
  if (status === 429) return httpOnly('rate_limited', (error as Error).message);
  if (status !== undefined && status >= 400 && status < 500) {
    return httpOnly('bad_request', (error as Error).message);
  }
  if (error instanceof StoreUnavailableError) {
    return httpOnly('unavailable', 'the store is unavailable; retry', { 'retry-after': '1' });
  }
  return httpOnly('internal', 'internal error');
}

import { createHash, randomBytes } from 'node:crypto';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { Client } from '@temporalio/client';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppDefinition } from '../config/index.js';
import type { ScoreConfigStore } from '../scores/index.js';
import { type Store, StoreUnavailableError } from '../store/index.js';
import { type VerifiedCaller, verifyCredential } from './credentials.js';
import { HttpRefusal, httpOnly, refuse } from './errors.js';
import type { PrincipalKind } from './principals.js';
import { registerRoutes } from './routes/index.js';

export interface ApiOptions {
  store: Store;
  app: AppDefinition;
  /** Temporal, for reviews, re-evaluation and readiness. */
  temporal: { client: Client; taskQueue: string };
  /** The sink's score configs, which the score-config routes read and change. */
  scoreConfigs: ScoreConfigStore;
  /** Called after a route archived a config, so this process's checks read the sink afresh. */
  onScoreConfigsChanged?: () => void;
  /** Largest request body, in bytes (default 2 MiB). */
  bodyLimitBytes?: number;
  /** Requests per minute per key (default 1200). */
  rateLimitPerMinute?: number;
  /**
   * Structured JSON logs, one line per request with its id: to stdout (default), to a stream,
   * or none (false). The Authorization header is never logged.
   */
  logger?: boolean | { stream: NodeJS.WritableStream };
  now?: () => Date;
}

/** What a route may do, read by the hooks: who may call it, or that anyone may. */
export interface RouteAccess {
  allow?: readonly PrincipalKind[];
  public?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: VerifiedCaller | null;
    /** Derived from the Idempotency-Key: names the store command, so a retry records once. */
    commandId: string | undefined;
    /** The Idempotency-Key and the request's fingerprint, until its first answer is kept. */
    idempotency: { key: string; fingerprint: string } | null;
  }
  interface FastifyContextConfig extends RouteAccess {}
}

export type Api = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;
// A request id not given is this process's random prefix and a counter: unique across restarts
// and processes, and cheaper than a UUID per request.
const processPrefix = randomBytes(6).toString('hex');
let requests = 0;
const nextRequestId = () => `${processPrefix}-${(++requests).toString(36)}`;

export const API_DEFAULTS = { bodyLimitBytes: 2 * 1024 * 1024, rateLimitPerMinute: 1200 };

/**
 * The HTTP API as a Fastify instance, not listening: tests and `evalflow api` listen on it. Its
 * routes' schemas are zod, the one source of validation, types and the OpenAPI document.
 */
export async function buildApi(options: ApiOptions): Promise<Api> {
  const now = options.now ?? (() => new Date());
  const api = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            redact: ['req.headers.authorization', 'req.headers["idempotency-key"]'],
            ...(typeof options.logger === 'object' ? { stream: options.logger.stream } : {}),
          },
    bodyLimit: options.bodyLimitBytes ?? API_DEFAULTS.bodyLimitBytes,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,64}$/.test(given) ? given : nextRequestId();
    },
    // A path the router cannot read (bad percent-encoding, an overlong parameter) is the caller's
    // mistake: a documented 400 with the API's body, not Fastify's own 400 or 414.
    frameworkErrors: (error, request, reply) => {
      const refusal = httpOnly('bad_request', error.message);
      void (reply as FastifyReply)
        .code(refusal.status)
        .header('x-request-id', request.id)
        .send(refusal.body);
    },
  }).withTypeProvider<ZodTypeProvider>();
  api.setValidatorCompiler(validatorCompiler);
  api.setSerializerCompiler(serializerCompiler);
  api.decorateRequest('caller', null);
  api.decorateRequest('commandId', undefined);
  api.decorateRequest('idempotency', null);

  // Each operation is named after its method and path (`postThreadsThreadIdRuns`), so clients
  // generated from the document get stable names.
  api.addHook('onRoute', (route) => {
    if (route.schema && !route.schema.operationId) {
      const words = route.url.split('/').filter((part) => part !== '' && part !== 'v1');
      const name = words.map((w) =>
        w.replace(/^:/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase()),
      );
      route.schema.operationId = [
        String(route.method).toLowerCase(),
        ...name.map((w) => w[0]?.toUpperCase() + w.slice(1)),
      ].join('');
    }
  });
  await api.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'evalflow',
        version: '1',
        description:
          'Agent runs, typed feedback and evaluator verdicts, mirrored into Langfuse as scores.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    // Schemas used by several routes become components, which this puts into the document.
    transformObject: jsonSchemaTransformObject,
  });
  await api.register(fastifySwaggerUi, { routePrefix: '/docs' });

  api.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (request.routeOptions.config.public || request.url.startsWith('/docs')) return;
    request.caller = await authenticate(options.store, request, now());
    const allow = request.routeOptions.config.allow;
    if (allow && !allow.includes(request.caller.principal.kind)) {
      throw refuse({
        type: 'forbidden',
        message: `a ${request.caller.principal.kind} key cannot ${request.method} ${request.routeOptions.url}`,
      });
    }
  });
  await api.register(fastifyRateLimit, {
    hook: 'preHandler',
    max: options.rateLimitPerMinute ?? API_DEFAULTS.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => request.caller?.credentialId ?? request.ip,
    allowList: (request) => request.routeOptions.config.public === true,
    // The limit's headers ride on the 429 alone (with Retry-After): no client reads them on
    // other answers, and every answer is lighter without them.
    addHeadersOnExceeding: {
      'x-ratelimit-limit': false,
      'x-ratelimit-remaining': false,
      'x-ratelimit-reset': false,
    },
    errorResponseBuilder: (_request, context) =>
      httpOnly('rate_limited', `more than ${context.max} requests a minute from this key`, {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });
  registerIdempotency(api, options.store);
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

  registerRoutes(api, { ...options, now });
  return api;
}

async function authenticate(store: Store, request: FastifyRequest, now: Date) {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) {
    throw httpOnly('unauthenticated', 'send Authorization: Bearer <key>');
  }
  const verified = await verifyCredential(store, header.slice('Bearer '.length).trim(), now);
  if ('refused' in verified) throw httpOnly('unauthenticated', verified.refused);
  return verified;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every write takes an Idempotency-Key: a replay answers the first response and records nothing
 * (the key also names the store command, so a retry after a crash records once); the same key
 * with another request is a conflict.
 */
function registerIdempotency(api: Api, store: Store) {
  api.addHook('preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (!WRITES.has(request.method) || key === undefined || request.caller === null) return;
    if (typeof key !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw httpOnly('bad_request', 'an Idempotency-Key is 1 to 255 visible ASCII characters');
    }
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${request.url} ${JSON.stringify(request.body ?? null)}`)
      .digest('hex');
    const scope = request.caller.credentialId;
    const first = await store.idempotency.recall(scope, key);
    if (first !== null) {
      if (first.fingerprint !== fingerprint) {
        throw refuse({
          type: 'conflict',
          message: `Idempotency-Key ${key} was used for a different request`,
        });
      }
      return reply.code(first.status).header('idempotent-replayed', 'true').send(first.body);
    }
    request.commandId = `http:${scope}:${key}`;
    request.idempotency = { key, fingerprint };
  });
  // Callback style, so the answers without an Idempotency-Key (most) pass with no promise.
  api.addHook('onSend', (request, reply, payload, done) => {
    const { idempotency, caller } = request;
    // A server fault or a rate limit is no answer: the retry should do the work.
    if (
      idempotency === null ||
      caller === null ||
      reply.statusCode >= 500 ||
      reply.statusCode === 429 ||
      typeof payload !== 'string'
    ) {
      done(null, payload);
      return;
    }
    Promise.resolve()
      .then(() =>
        store.idempotency.remember(caller.credentialId, idempotency.key, {
          fingerprint: idempotency.fingerprint,
          status: reply.statusCode,
          body: JSON.parse(payload),
        }),
      )
      .then(() => done(null, payload), done);
  });
}

function asRefusal(error: unknown): HttpRefusal {
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
  if (status === 429) return httpOnly('rate_limited', (error as Error).message);
  if (status !== undefined && status >= 400 && status < 500) {
    return httpOnly('bad_request', (error as Error).message);
  }
  if (error instanceof StoreUnavailableError) {
    return httpOnly('unavailable', 'the store is unavailable; retry', { 'retry-after': '1' });
  }
  return httpOnly('internal', 'internal error');
}

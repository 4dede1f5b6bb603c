import fastifyRateLimit from '@fastify/rate-limit';
import fastifyPlugin from 'fastify-plugin';
import { httpOnly } from '../errors.js';

// Requests per minute per key (per address before a key is known); public routes are not
// counted. It runs after authentication, so a key's requests share one budget wherever they come
// from.

export const rateLimit = fastifyPlugin<{ perMinute: number }>(
  async (api, { perMinute }) => {
    await api.register(fastifyRateLimit, {
      hook: 'preHandler',
      max: perMinute,
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
  },
  { name: 'evalflow-rate-limit', dependencies: ['evalflow-authentication'] },
);

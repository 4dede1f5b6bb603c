import type { FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { withArticle } from '../../core/index.js';
import type { ApiRecords } from '../../store/index.js';
import { type VerifiedCaller, verifyCredential } from '../../wire/credentials.js';
import { httpOnly, refuse } from '../errors.js';

// Every request but a public route's names its caller with `Authorization: Bearer <key>`: the key
// is verified against the store, and the route's `allow` list is checked, before validation or
// the handler run. A route then reads its caller with `callerOf`.

declare module 'fastify' {
  interface FastifyRequest {
    caller: VerifiedCaller | null;
  }
}

export const authentication = fastifyPlugin<{
  store: Pick<ApiRecords, 'apiKeys'>;
  now: () => Date;
}>(
  async (api, { store, now }) => {
    api.decorateRequest('caller', null);
    api.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
      if (request.routeOptions.config.public || request.url.startsWith('/docs')) return;
      request.caller = await authenticate(store, request, now());
      const allow = request.routeOptions.config.allow;
      if (allow && !allow.includes(request.caller.principal.kind)) {
        throw refuse({
          type: 'forbidden',
          message: `${withArticle(request.caller.principal.kind)} key cannot ${request.method} ${request.routeOptions.url}`,
        });
      }
    });
  },
  { name: 'evalflow-authentication' },
);

async function authenticate(
  store: Pick<ApiRecords, 'apiKeys'>,
  request: FastifyRequest,
  now: Date,
) {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Bearer ')) {
    throw httpOnly('unauthenticated', 'send Authorization: Bearer <key>');
  }
  const verified = await verifyCredential(store, header.slice('Bearer '.length).trim(), now);
  if ('refused' in verified) throw httpOnly('unauthenticated', verified.refused);
  return verified;
}

/** The verified caller; routes run only after authentication, so there is one. */
export const callerOf = (request: FastifyRequest): VerifiedCaller => {
  if (request.caller === null) throw new Error('route ran without a verified caller');
  return request.caller;
};

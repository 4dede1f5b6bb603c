import { createHash } from 'node:crypto';
import fastifyPlugin from 'fastify-plugin';
import type { ApiRecords } from '../../store/index.js';
import { httpOnly, refuse } from '../errors.js';

// Every write takes an Idempotency-Key: a replay answers the first response and records nothing
// (the key also names the store command, so a retry after a crash records once); the same key
// with another request is a conflict. Keys are scoped by the caller's credential.

declare module 'fastify' {
  interface FastifyRequest {
    /** Derived from the Idempotency-Key: names the store command, so a retry records once. */
    commandId: string | undefined;
    /** The Idempotency-Key and the request's fingerprint, until its first answer is kept. */
    idempotency: { key: string; fingerprint: string } | null;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const idempotency = fastifyPlugin<{ store: Pick<ApiRecords, 'idempotency'> }>(
  async (api, { store }) => {
    api.decorateRequest('commandId', undefined);
    api.decorateRequest('idempotency', null);
    api.addHook('preHandler', async (request, reply) => {
      const key = request.headers['idempotency-key'];
      if (!WRITES.has(request.method) || key === undefined || !request.caller) return;
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
      // A server fault or a rate limit is no answer: the retry should do the work. (Routes that
      // plugins registered before this one, such as /docs, have neither decoration: undefined.)
      if (
        !idempotency ||
        !caller ||
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
  },
  { name: 'evalflow-idempotency', dependencies: ['evalflow-authentication'] },
);

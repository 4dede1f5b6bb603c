import { z } from 'zod';
import { issueCredential } from '../../wire/credentials.js';
import { refusalResponses } from '../errors.js';
import { callerOf, type Register } from './context.js';

// Short-lived tokens acting as one end user: the verified caller context for ratings that reach
// evalflow through the host's backend.

export const MAX_USER_TOKEN_SECONDS = 24 * 60 * 60;

// The body and answer, named so that the HTTP client's types are these very schemas.
export const CreateUserTokenBody = z.strictObject({
  userId: z.string().min(1),
  name: z.string().min(1).optional(),
  ttlSeconds: z.int().min(1).max(MAX_USER_TOKEN_SECONDS).default(3600),
});
export const UserTokenReply = z.object({
  id: z.string(),
  token: z.string(),
  principal: z.string(),
  expiresAt: z.string(),
});

export const registerUserTokens: Register = (api, deps) => {
  api.post('/v1/user-tokens', {
    config: { allow: ['system'] },
    schema: {
      tags: ['auth'],
      summary: 'A short-lived token acting as user:{userId} in this workspace',
      body: CreateUserTokenBody,
      response: { 201: UserTokenReply, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { userId, name, ttlSeconds } = request.body;
      const expiresAt = new Date(deps.now().getTime() + ttlSeconds * 1000);
      const issued = await issueCredential(deps.store, {
        kind: 'user_token',
        workspaceId: callerOf(request).workspaceId,
        principal: { kind: 'user', id: userId },
        name: name ?? null,
        expiresAt,
      });
      return reply.code(201).send({
        id: issued.record.id,
        token: issued.key,
        principal: issued.record.principal,
        expiresAt: expiresAt.toISOString(),
      });
    },
  });
};

import { z } from 'zod';
import { defineRoutes } from '../contracts/contract.js';
import { bindRoutes } from './bind-routes.js';
import { issueExpiring } from './context.js';

// Short-lived tokens acting as one end user: the verified caller context for ratings that reach
// evalflow through the host's backend.

export const MAX_USER_TOKEN_SECONDS = 24 * 60 * 60;

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

export const userTokenRoutes = defineRoutes({
  createUserToken: {
    method: 'POST',
    path: '/v1/user-tokens',
    allow: ['system'],
    tags: ['auth'],
    summary: 'A short-lived token acting as user:{userId} in this workspace',
    body: CreateUserTokenBody,
    answers: { 201: UserTokenReply },
  },
});

export const registerUserTokens = bindRoutes(userTokenRoutes, {
  createUserToken: ({ body: { userId, name, ttlSeconds }, request, deps }) =>
    issueExpiring(deps, request, {
      kind: 'user_token',
      principal: { kind: 'user', id: userId },
      name: name ?? null,
      ttlSeconds,
    }),
});

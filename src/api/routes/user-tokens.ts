import { issueCredential } from '../../wire/credentials.js';
import { userTokenRoutes } from '../contracts/user-tokens.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';

// Short-lived tokens acting as one end user (contracts/user-tokens.ts).

export const registerUserTokens = bindRoutes(userTokenRoutes, {
  createUserToken: async ({ body: { userId, name, ttlSeconds }, request, deps }) => {
    const expiresAt = new Date(deps.now().getTime() + ttlSeconds * 1000);
    const issued = await issueCredential(deps.store, {
      kind: 'user_token',
      workspaceId: callerOf(request).workspaceId,
      principal: { kind: 'user', id: userId },
      name: name ?? null,
      expiresAt,
    });
    return {
      id: issued.record.id,
      token: issued.key,
      principal: issued.record.principal,
      expiresAt: expiresAt.toISOString(),
    };
  },
});

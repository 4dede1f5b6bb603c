import { userTokenRoutes } from '../contracts/user-tokens.js';
import { bindRoutes } from './bind-routes.js';
import { issueExpiring } from './context.js';

// Short-lived tokens acting as one end user (contracts/user-tokens.ts).

export const registerUserTokens = bindRoutes(userTokenRoutes, {
  createUserToken: ({ body: { userId, name, ttlSeconds }, request, deps }) =>
    issueExpiring(deps, request, {
      kind: 'user_token',
      principal: { kind: 'user', id: userId },
      name: name ?? null,
      ttlSeconds,
    }),
});

import { issueCredential } from '../../wire/credentials.js';
import { signInPath } from '../../wire/page.js';
import { reviewerSignInRoutes } from '../contracts/reviewer-sign-in.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';

// A reviewer's sign-in link (contracts/reviewer-sign-in.ts). The page's path carries the token
// in the URL's fragment (`/ui/#token=…`), which a browser never sends to a server, so it reaches
// no server's log; the page keeps it in memory or session storage and sends it as a Bearer
// header (no cookie, so no CSRF).

export const registerReviewerSignIn = bindRoutes(reviewerSignInRoutes, {
  reviewerSignIn: async ({ params, body: { expiresInSeconds }, request, deps }) => {
    const expiresAt = new Date(deps.now().getTime() + expiresInSeconds * 1000);
    const issued = await issueCredential(deps.store, {
      kind: 'sign_in',
      workspaceId: callerOf(request).workspaceId,
      principal: { kind: 'reviewer', id: params.reviewerId },
      name: null,
      expiresAt,
    });
    return {
      id: issued.record.id,
      token: issued.key,
      principal: issued.record.principal,
      expiresAt: expiresAt.toISOString(),
      path: signInPath(issued.key),
    };
  },
});

import { signInPath } from '../../wire/page.js';
import { reviewerSignInRoutes } from '../contracts/reviewer-sign-in.js';
import { bindRoutes } from './bind-routes.js';
import { issueExpiring } from './context.js';

// A reviewer's sign-in link (contracts/reviewer-sign-in.ts). The page's path carries the token
// in the URL's fragment (`/ui/#token=…`), which a browser never sends to a server, so it reaches
// no server's log; the page keeps it in memory or session storage and sends it as a Bearer
// header (no cookie, so no CSRF).

export const registerReviewerSignIn = bindRoutes(reviewerSignInRoutes, {
  reviewerSignIn: async ({ params, body: { expiresInSeconds }, request, deps }) => {
    const issued = await issueExpiring(deps, request, {
      kind: 'sign_in',
      principal: { kind: 'reviewer', id: params.reviewerId },
      name: null,
      ttlSeconds: expiresInSeconds,
    });
    return { ...issued, path: signInPath(issued.token) };
  },
});

import { z } from 'zod';
import { Id } from '../../core/index.js';
import { SIGN_IN_SECONDS, signInPath } from '../../wire/page.js';
import { OPERATORS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { bindRoutes } from './bind-routes.js';
import { issueExpiring } from './context.js';

// A reviewer's sign-in link: a short-lived token acting as reviewer:{id}, for the reviewers'
// page, which carries it in the URL's fragment (`/ui/#token=…`): a browser never sends that to a
// server, so it reaches no server's log; the page keeps it in memory or session storage and sends
// it as a Bearer header (no cookie, so no CSRF).

export const SignInParams = z.object({ reviewerId: Id });
export const SignInBody = z
  .strictObject({
    expiresInSeconds: z
      .int()
      .min(SIGN_IN_SECONDS.min)
      .max(SIGN_IN_SECONDS.max)
      .default(SIGN_IN_SECONDS.default),
  })
  .default({ expiresInSeconds: SIGN_IN_SECONDS.default });
export const SignInReply = z.object({
  id: z.string(),
  token: z.string(),
  principal: z.string(),
  expiresAt: z.string(),
  /** The reviewers' page with the token in its fragment: append it to the API's address. */
  path: z.string(),
});

export const reviewerSignInRoutes = defineRoutes({
  reviewerSignIn: {
    method: 'POST',
    path: '/v1/reviewers/:reviewerId/sign-in',
    allow: OPERATORS,
    tags: ['auth'],
    summary: 'A short-lived sign-in token for reviewer:{reviewerId}, and the page’s path with it',
    params: SignInParams,
    body: SignInBody,
    answers: { 201: SignInReply },
  },
});

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

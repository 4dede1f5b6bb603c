import { z } from 'zod';
import { Id } from '../../core/index.js';
import { issueCredential } from '../../wire/credentials.js';
import { SIGN_IN_SECONDS, signInPath } from '../../wire/page.js';
import { refusalResponses } from '../errors.js';
import { callerOf, type Register } from './context.js';

// A reviewer's sign-in link: a short-lived token acting as reviewer:{id}, for the reviewers'
// page. The page's path carries it in the URL's fragment (`/ui/#token=…`), which a browser never
// sends to a server, so it reaches no server's log; the page keeps it in memory or session
// storage and sends it as a Bearer header (no cookie, so no CSRF).

// The body and answer, named so that the HTTP client's types are these very schemas.
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

export const registerReviewerSignIn: Register = (api, deps) => {
  api.post('/v1/reviewers/:reviewerId/sign-in', {
    config: { allow: ['system', 'admin'] },
    schema: {
      tags: ['auth'],
      summary: 'A short-lived sign-in token for reviewer:{reviewerId}, and the page’s path with it',
      params: SignInParams,
      body: SignInBody,
      response: { 201: SignInReply, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { expiresInSeconds } = request.body;
      const expiresAt = new Date(deps.now().getTime() + expiresInSeconds * 1000);
      const issued = await issueCredential(deps.store, {
        kind: 'sign_in',
        workspaceId: callerOf(request).workspaceId,
        principal: { kind: 'reviewer', id: request.params.reviewerId },
        name: null,
        expiresAt,
      });
      return reply.code(201).send({
        id: issued.record.id,
        token: issued.key,
        principal: issued.record.principal,
        expiresAt: expiresAt.toISOString(),
        path: signInPath(issued.key),
      });
    },
  });
};

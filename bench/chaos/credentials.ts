import { issueCredential } from '../../src/api/index.js';
import type { Deployment } from './deployment.js';

// A key for each kind of principal in workspace `ws`, and the wrong credentials the boundary
// scenario presents: none, a revoked key, an expired user token, another workspace's key.

export interface PrincipalKeys {
  system: string;
  admin: string;
  agent: string;
  reviewer: string;
  evaluator: string;
  /** A user token for `user:ada`, issued through the API as a host app would. */
  user: string;
  /** A user token for `user:bob`, who must not touch ada's rating. */
  otherUser: string;
}

async function userToken(deployment: Deployment, system: string, userId: string) {
  const response = await fetch(`${deployment.url}/v1/user-tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${system}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  if (response.status !== 201) throw new Error(`POST /v1/user-tokens answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

export async function principalKeys(deployment: Deployment): Promise<PrincipalKeys> {
  const system = await deployment.key('system');
  return {
    system,
    admin: await deployment.key('admin'),
    agent: await deployment.key('agent'),
    reviewer: await deployment.key('reviewer:rita'),
    evaluator: await deployment.key('evaluator:answer_length@1'),
    user: await userToken(deployment, system, 'ada'),
    otherUser: await userToken(deployment, system, 'bob'),
  };
}

export interface WrongCredentials {
  revoked: string;
  expired: string;
  stranger: string;
}

export async function wrongCredentials(deployment: Deployment): Promise<WrongCredentials> {
  const revoked = await deployment.key('system');
  await deployment.store.apiKeys.revoke(revoked.split('_')[1] as string);
  const expired = await issueCredential(deployment.store, {
    kind: 'user_token',
    workspaceId: 'ws',
    principal: { kind: 'user', id: 'late' },
    expiresAt: new Date(Date.now() - 1000),
  });
  return { revoked, expired: expired.key, stranger: await deployment.key('system', 'elsewhere') };
}

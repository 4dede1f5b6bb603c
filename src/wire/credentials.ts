import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { ApiKeyRecord, ApiRecords, CredentialKind } from '../store/index.js';
import { type Principal, parsePrincipal, principalText } from './principals.js';

// Keys, user tokens and reviewers' sign-in tokens: `efk_{id}_{secret}`, `eut_{id}_{secret}` and
// `esi_{id}_{secret}`. The id finds the stored credential; only a hash of the secret is stored,
// so a leaked database holds no usable key.

const PREFIX: Record<CredentialKind, string> = { key: 'efk', user_token: 'eut', sign_in: 'esi' };
const digest = (secret: string) => createHash('sha256').update(secret).digest();
const hash = (secret: string) => digest(secret).toString('hex');

export interface IssuedCredential {
  record: ApiKeyRecord;
  /** The secret the caller presents; shown once, never stored. */
  key: string;
}

export async function issueCredential(
  store: Pick<ApiRecords, 'apiKeys'>,
  input: {
    kind: CredentialKind;
    workspaceId: string;
    principal: Principal;
    name?: string | null;
    expiresAt?: Date | null;
  },
): Promise<IssuedCredential> {
  const id = uuidv7().replaceAll('-', '');
  const secret = randomBytes(24).toString('base64url');
  const record = await store.apiKeys.create({
    id,
    kind: input.kind,
    workspace_id: input.workspaceId,
    principal: principalText(input.principal),
    name: input.name ?? null,
    expires_at: input.expiresAt?.toISOString() ?? null,
    secret_hash: hash(secret),
  });
  return { record, key: `${PREFIX[input.kind]}_${id}_${secret}` };
}

export interface VerifiedCaller {
  credentialId: string;
  kind: CredentialKind;
  workspaceId: string;
  principal: Principal;
}

/** The caller a presented key or token stands for, or the reason it stands for none. */
export async function verifyCredential(
  store: Pick<ApiRecords, 'apiKeys'>,
  presented: string,
  now: Date,
): Promise<VerifiedCaller | { refused: string }> {
  const match = /^(efk|eut|esi)_([0-9a-f]{32})_([A-Za-z0-9_-]{32})$/.exec(presented);
  if (match === null) return { refused: 'the credential is malformed' };
  const [, prefix, id, secret] = match as unknown as [string, string, string, string];
  const stored = await store.apiKeys.find(id);
  const expected = stored ? Buffer.from(stored.secret_hash, 'hex') : Buffer.alloc(32);
  const given = digest(secret);
  const same = timingSafeEqual(expected, given);
  if (stored === null || !same || PREFIX[stored.kind] !== prefix) {
    return { refused: 'the credential is not known' };
  }
  if (stored.revoked_at !== null) return { refused: 'the credential was revoked' };
  if (stored.expires_at !== null && Date.parse(stored.expires_at) <= now.getTime()) {
    return { refused: 'the credential has expired' };
  }
  const principal = parsePrincipal(stored.principal);
  if (principal === null) return { refused: 'the credential names no valid principal' };
  if (principal.kind === 'user' && stored.name) principal.name = stored.name;
  return {
    credentialId: stored.id,
    kind: stored.kind,
    workspaceId: stored.workspace_id,
    principal,
  };
}

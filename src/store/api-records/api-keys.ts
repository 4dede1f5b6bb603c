import type { Backend, Row } from '../backend.js';

// API keys and user tokens, kept beside the log so every API process on one store shares them.
// Only a hash of each secret is stored; the API makes and checks the secrets.

/** A key; a short-lived token acting as one user; a reviewer's short-lived sign-in token. */
export type CredentialKind = 'key' | 'user_token' | 'sign_in';

export interface ApiKeyRecord {
  id: string;
  kind: CredentialKind;
  workspace_id: string;
  /** `system`, `agent`, `admin`, `user:{id}`, `reviewer:{id}` or `evaluator:{name}@{version}`. */
  principal: string;
  /** A label for people (a key's purpose, a user's display name). */
  name: string | null;
  created_at: string;
  /** When a token stops working; null for keys. */
  expires_at: string | null;
  revoked_at: string | null;
}

export interface StoredCredential extends ApiKeyRecord {
  secret_hash: string;
}

export interface ApiKeys {
  create(credential: Omit<StoredCredential, 'created_at' | 'revoked_at'>): Promise<ApiKeyRecord>;
  find(id: string): Promise<StoredCredential | null>;
  /** Keys (not user tokens), oldest first; one workspace's when given. */
  list(filter?: { workspace_id?: string }): Promise<ApiKeyRecord[]>;
  /** Revokes a key or token; false when there is none with that id or it was revoked already. */
  revoke(id: string): Promise<boolean>;
}

/** Credentials `find` keeps while nobody else wrote; more are let go rather than grow the map. */
const REMEMBERED_MAX = 10_000;

export function createApiKeys(backend: Backend, now: () => Date): ApiKeys {
  // Every API request finds its key. Where the backend tells that no other connection has
  // written since a credential was read, and this store has revoked nothing since, the row read
  // then is still the row. Any write by another store or process (a `keys revoke`) makes every
  // find read again.
  const remembered = new Map<string, { mark: string; credential: StoredCredential }>();
  let revocations = 0;
  const markNow = () => {
    const others = backend.othersWroteMark?.();
    return others === undefined ? undefined : `${others}:${revocations}`;
  };
  return {
    async create(credential) {
      const created_at = now().toISOString();
      await backend.transaction((sql) =>
        sql.run(
          `INSERT INTO api_keys (id, kind, workspace_id, principal, name, secret_hash, created_at,
             expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL)`,
          [
            credential.id,
            credential.kind,
            credential.workspace_id,
            credential.principal,
            credential.name,
            credential.secret_hash,
            created_at,
            credential.expires_at,
          ],
        ),
      );
      const { secret_hash: _secret, ...record } = credential;
      return { ...record, created_at, revoked_at: null };
    },
    async find(id) {
      // Taken before the read: a write landing in between only makes the next find read again.
      const mark = markNow();
      const kept = remembered.get(id);
      if (kept !== undefined && kept.mark === mark) return { ...kept.credential };
      const rows = await backend.read((sql) =>
        sql.all('SELECT * FROM api_keys WHERE id = ?', [id]),
      );
      if (rows[0] === undefined) return null;
      const credential = { ...recordOf(rows[0]), secret_hash: String(rows[0].secret_hash) };
      if (mark !== undefined) {
        if (remembered.size >= REMEMBERED_MAX) remembered.clear();
        remembered.set(id, { mark, credential });
      }
      return { ...credential };
    },
    async list(filter = {}) {
      const rows = await backend.read((sql) =>
        filter.workspace_id === undefined
          ? sql.all("SELECT * FROM api_keys WHERE kind = 'key' ORDER BY created_at, id")
          : sql.all(
              "SELECT * FROM api_keys WHERE kind = 'key' AND workspace_id = ? ORDER BY created_at, id",
              [filter.workspace_id],
            ),
      );
      return rows.map(recordOf);
    },
    async revoke(id) {
      try {
        return await backend.transaction(async (sql) => {
          const rows = await sql.all(
            'SELECT id FROM api_keys WHERE id = ? AND revoked_at IS NULL',
            [id],
          );
          if (rows.length === 0) return false;
          await sql.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [
            now().toISOString(),
            id,
          ]);
          return true;
        });
      } finally {
        // After the commit: a find that read before it kept a mark that no longer matches.
        revocations += 1;
      }
    },
  };
}

const recordOf = (row: Row): ApiKeyRecord => ({
  id: String(row.id),
  kind: row.kind as CredentialKind,
  workspace_id: String(row.workspace_id),
  principal: String(row.principal),
  name: row.name === null ? null : String(row.name),
  created_at: String(row.created_at),
  expires_at: row.expires_at === null ? null : String(row.expires_at),
  revoked_at: row.revoked_at === null ? null : String(row.revoked_at),
});

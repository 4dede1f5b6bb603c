import { asNumber, type Backend, parseJson } from '../backend.js';

// The first response to each Idempotency-Key, per credential, so a retried request answers the
// same and records nothing again; the same key with another request is refused.

export interface RememberedResponse {
  fingerprint: string;
  status: number;
  body: unknown;
}

export interface IdempotencyRecords {
  recall(scope: string, key: string): Promise<RememberedResponse | null>;
  /** Keeps the first response given for a key; a later one for the same key is ignored. */
  remember(scope: string, key: string, response: RememberedResponse): Promise<void>;
}

export function createIdempotencyRecords(backend: Backend, now: () => Date): IdempotencyRecords {
  return {
    async recall(scope, key) {
      const rows = await backend.read((sql) =>
        sql.all(
          'SELECT fingerprint, status, body FROM idempotency_keys WHERE scope = ? AND idempotency_key = ?',
          [scope, key],
        ),
      );
      const row = rows[0];
      if (row === undefined) return null;
      return {
        fingerprint: String(row.fingerprint),
        status: asNumber(row.status),
        body: parseJson(row.body),
      };
    },
    async remember(scope, key, { fingerprint, status, body }) {
      await backend.transaction((sql) =>
        sql.run(
          `INSERT INTO idempotency_keys (scope, idempotency_key, fingerprint, status, body, created_at)
             VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, idempotency_key) DO NOTHING`,
          [scope, key, fingerprint, status, JSON.stringify(body), now().toISOString()],
        ),
      );
    },
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { issueCredential } from '../../src/api/index.js';
import { defineConfig } from '../../src/config/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../../src/store/index.js';
import { verifyCredential } from '../../src/wire/credentials.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';

// Every API request finds its key, and the SQLite store keeps a found key while no other
// connection writes. A revocation must still be seen at once: by this store, and through
// another store on the same database (the `keys revoke` CLI is another process).

const dir = mkdtempSync(join(tmpdir(), 'evalflow-api-keys-'));
const schema = freshSchemaName();
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropSchema(databaseUrl(), schema);
});

const app = defineConfig({});
const backends: [string, () => Promise<Store>][] = [
  ['SQLite', async () => openSqliteStore(join(dir, 'keys.db'), app)],
  ['Postgres', async () => openPostgresStore({ databaseUrl: databaseUrl(), schema }, app)],
];

describe.each(backends)('API keys on %s', (_name, open) => {
  const withTwoStores = async (work: (api: Store, cli: Store) => Promise<void>) => {
    const [api, cli] = [await open(), await open()];
    try {
      await work(api, cli);
    } finally {
      await api.close();
      await cli.close();
    }
  };
  const issue = (store: Store) =>
    issueCredential(store, { kind: 'key', workspaceId: 'w', principal: { kind: 'system' } });

  it('are refused at once when another store revokes them', () =>
    withTwoStores(async (api, cli) => {
      const { key, record } = await issue(api);
      expect(await verifyCredential(api, key, new Date())).toMatchObject({ workspaceId: 'w' });
      expect(await verifyCredential(api, key, new Date())).toMatchObject({ workspaceId: 'w' });
      expect(await cli.apiKeys.revoke(record.id)).toBe(true);
      expect(await verifyCredential(api, key, new Date())).toEqual({
        refused: 'the credential was revoked',
      });
      expect((await api.apiKeys.find(record.id))?.revoked_at).not.toBeNull();
    }));

  it('are refused at once when this store revokes them, even with a find in flight', () =>
    withTwoStores(async (api) => {
      const { key, record } = await issue(api);
      expect(await verifyCredential(api, key, new Date())).toMatchObject({ workspaceId: 'w' });
      const inFlight = api.apiKeys.find(record.id);
      expect(await api.apiKeys.revoke(record.id)).toBe(true);
      await inFlight;
      expect(await verifyCredential(api, key, new Date())).toEqual({
        refused: 'the credential was revoked',
      });
    }));

  it('made by another store are found, and a find gives a copy its caller may change', () =>
    withTwoStores(async (api, cli) => {
      const { key, record } = await issue(cli);
      const found = await api.apiKeys.find(record.id);
      expect(found).toMatchObject({ id: record.id, revoked_at: null });
      if (found) found.revoked_at = 'changed';
      expect((await api.apiKeys.find(record.id))?.revoked_at).toBeNull();
      expect(await verifyCredential(api, key, new Date())).toMatchObject({ workspaceId: 'w' });
      expect(await api.apiKeys.find('0'.repeat(32))).toBeNull();
    }));
});

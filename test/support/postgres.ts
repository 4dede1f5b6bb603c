import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * The URL the postgres project's global setup provided (DATABASE_URL or a throwaway cluster).
 * Only files named for Postgres run there (vitest.config.ts); `npm run test:unit` has none.
 */
export function databaseUrl(): string {
  const url = inject('databaseUrl');
  if (url === undefined) {
    throw new Error(
      'no Postgres in this test project: name a file that needs it *.postgres.test.ts',
    );
  }
  return url;
}

/** A fresh schema name; `dropSchema` removes it and everything in it once the tests are done. */
export const freshSchemaName = (): string => `evalflow_test_${randomUUID().replace(/-/g, '')}`;

export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

import { afterAll } from 'vitest';
import { openPostgresStore } from '../../src/store/index.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';
import { evidenceContract } from './evidence-contract.js';

const schemas: string[] = [];
afterAll(() => Promise.all(schemas.map((schema) => dropSchema(databaseUrl(), schema))));

evidenceContract('Postgres', (options) => {
  const schema = freshSchemaName();
  schemas.push(schema);
  return openPostgresStore({ databaseUrl: databaseUrl(), schema }, options);
});

import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/index.js';
import { storeCaseRunner } from '../../src/testing/index.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';
import { suites } from './suites.js';

// Every case file on Postgres, in a fresh schema (conformance.test.ts: the core and SQLite).

const schema = freshSchemaName();
const postgres = storeCaseRunner((options) =>
  openPostgresStore({ databaseUrl: databaseUrl(), schema }, options),
);
afterAll(async () => {
  await postgres.close();
  await dropSchema(databaseUrl(), schema);
});

for (const suite of suites) {
  describe(`${suite.file}: ${suite.description}`, () => {
    suite.cases.forEach((testCase, index) => {
      it(`${testCase.name} (on Postgres)`, async () => {
        expect(await postgres.run(testCase, `${suite.file}#${index}`)).toEqual([]);
      });
    });
  });
}

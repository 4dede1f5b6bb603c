import { afterAll, beforeAll, expect, it } from 'vitest';
import { tryEveryBoundary } from '../../bench/chaos/boundaries.js';
import { principalKeys } from '../../bench/chaos/credentials.js';
import type { Deployment } from '../../bench/chaos/deployment.js';
import { fuzzApi } from '../../bench/chaos/fuzz.js';
import { startTestDeployment } from '../support/deployment.js';

// The short versions of chaos scenarios 7 and 8 (npm run bench:chaos runs the long ones) against
// a real `evalflow api` process on a Temporal dev server: schemathesis fuzzes every route in the
// OpenAPI document, then every route is tried with every wrong credential.

let deployment: Deployment;
beforeAll(async () => {
  deployment = await startTestDeployment();
}, 300_000);
afterAll(async () => {
  await deployment?.close();
});

it('answers schemathesis only with documented statuses, never a 5xx, and a refusal stores nothing', {
  timeout: 900_000,
}, async () => {
  const keys = await principalKeys(deployment);
  const figures = await fuzzApi({
    url: deployment.url,
    snapshot: deployment.snapshot,
    keys: Object.values(keys),
    requests: 1000,
    maxExamples: 3,
    seed: 7,
  });
  expect(figures.examples).toEqual([]);
  expect(figures.fiveXx).toBe(0);
  expect(figures.undocumented).toBe(0);
  expect(figures.storedByRefused).toBe(0);
  expect(figures.requests).toBeGreaterThanOrEqual(1000);
  expect(figures.schemathesis.code, figures.schemathesis.summary).toBe(0);
  const document = (await (await fetch(`${deployment.url}/openapi.json`)).json()) as {
    paths: Record<string, object>;
  };
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(documented.filter((route) => !figures.perRoute.has(route))).toEqual([]);
});

it('refuses every route to every wrong credential with its documented status, storing nothing', {
  timeout: 300_000,
}, async () => {
  const figures = await tryEveryBoundary(deployment);
  expect(figures.breaches).toEqual([]);
  expect(figures.routes).toBeGreaterThan(25);
  expect(figures.attempts).toBeGreaterThan(figures.routes * 5);
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workflowBundle } from '../support/temporal.js';

// Every cached workflow loads its own copy of each module in the bundle, so what the workflow
// code imports is paid once per paused run: the bundle holds the SDK and evalflow's workflow
// code, and none of the libraries the rest of evalflow uses.
describe('the workflow bundle', () => {
  it('holds no zod and nothing of the store, the scores or the activities', () => {
    const bundle = workflowBundle();
    const code = readFileSync('codePath' in bundle ? bundle.codePath : '', 'utf8');
    const modules = [...code.matchAll(/\/\*\*\*\/ "([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(modules.length).toBeGreaterThan(10);
    expect(modules.filter((m) => m.includes('/zod/'))).toEqual([]);
    expect(modules.filter((m) => /src\/(store|scores|activities|evaluators)\//.test(m))).toEqual(
      [],
    );
    expect(modules.some((m) => m.includes('src/workflows/evaluate-run.ts'))).toBe(true);
  });
});

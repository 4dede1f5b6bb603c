import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every module of src/scores, its adapters included, loads on its own. A change that breaks a
// module's top level (a schema built wrong) makes each test file importing it fail to load, and
// Stryker's vitest runner counts such a file as passing (stryker-js#6150); imported here inside a
// test, it fails a test instead.
const folder = 'src/scores';
const modules = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) =>
  file.endsWith('.ts'),
);

describe(`${folder} modules`, () => {
  it('are all found', () => {
    expect(modules).toContain('values/score-values.ts');
  });

  it.each(modules)('%s loads', async (file) => {
    const module: unknown = await import(pathToFileURL(resolve(folder, file)).href);
    expect(module).toBeTypeOf('object');
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// src/agreement is pure: its files import one another and nothing else (no node module, no
// package, no other evalflow folder), so the store, the API, the CLI and the page can all use it.

it('imports nothing but its own files', () => {
  const folder = 'src/agreement';
  const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(5);
  const outside = files.flatMap((file) =>
    [
      ...readFileSync(join(folder, file), 'utf8').matchAll(
        /\bfrom\s+'([^']+)'|import\(\s*'([^']+)'/g,
      ),
    ]
      .map((match) => match[1] ?? match[2] ?? '')
      .filter((target) => !/^\.\/[\w-]+\.js$/.test(target))
      .map((target) => `${file} imports ${target}`),
  );
  expect(outside).toEqual([]);
});

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

// src/tuning is pure: it reads and writes nothing, so a workflow, an activity or the API can run
// it alike. It imports its own files, zod, and the pure surfaces of src/core and src/agreement.

const allowed = /^(\.\/[\w-]+\.js|\.\.\/core\/index\.js|\.\.\/agreement\/index\.js|zod)$/;

it('imports nothing but its own files, zod, and the core and agreement surfaces', () => {
  const folder = 'src/tuning';
  const files = readdirSync(folder).filter((file) => file.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(5);
  const outside = files.flatMap((file) =>
    [
      ...readFileSync(join(folder, file), 'utf8').matchAll(
        /\bfrom\s+'([^']+)'|import\(\s*'([^']+)'/g,
      ),
    ]
      .map((match) => match[1] ?? match[2] ?? '')
      .filter((target) => !allowed.test(target))
      .map((target) => `${file} imports ${target}`),
  );
  expect(outside).toEqual([]);
});

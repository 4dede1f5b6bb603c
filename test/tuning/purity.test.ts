import { expect, it } from 'vitest';
import { importsOutside } from '../support/folder-imports.js';

// src/tuning is pure: it reads and writes nothing, so a workflow, an activity or the API can run
// it alike. It imports its own files, zod, and the pure surfaces of src/core and src/agreement.

const allowed = /^(\.\/[\w-]+\.js|\.\.\/core\/index\.js|\.\.\/agreement\/index\.js|zod)$/;

it('imports nothing but its own files, zod, and the core and agreement surfaces', () => {
  const { files, outside } = importsOutside('src/tuning', allowed);
  expect(files).toBeGreaterThan(5);
  expect(outside).toEqual([]);
});

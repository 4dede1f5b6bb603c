import { expect, it } from 'vitest';
import { importsOutside } from '../support/folder-imports.js';

// src/agreement is pure: its files import one another and nothing else (no node module, no
// package, no other evalflow folder), so the store, the API, the CLI and the page can all use it.

it('imports nothing but its own files', () => {
  const { files, outside } = importsOutside('src/agreement', /^\.\/[\w-]+\.js$/);
  expect(files).toBeGreaterThan(5);
  expect(outside).toEqual([]);
});

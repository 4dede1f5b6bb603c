import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CaseFile } from '../../src/testing/index.js';

/** The case files in this folder, each parsed. */
const folder = 'test/conformance';
export const files = readdirSync(folder)
  .filter((name) => name.endsWith('.json'))
  .map((name) => join(folder, name));
export const suites = files.map((file) => ({
  file,
  ...CaseFile.parse(JSON.parse(readFileSync(file, 'utf8'))),
}));

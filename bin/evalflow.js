#!/usr/bin/env node
// `evalflow`. Installed as a dependency (under node_modules) or in the image, it runs the compiled
// dist/, which `npm pack` builds. In a checkout it runs the sources through tsx, as `npm start`
// does, so it works right after `npm install` with no build and never runs a stale dist/.
import { existsSync } from 'node:fs';
import { register } from 'node:module';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = new URL('..', import.meta.url);
const sources = new URL('src/cli/main.ts', root);
// Node runs a bin by its real path, so a checkout linked into node_modules (`npm link`) is still
// a checkout here. An image (the Dockerfile) ships dist/ and no sources.
const installed = fileURLToPath(root).split(sep).includes('node_modules') || !existsSync(sources);

if (installed) {
  const main = new URL('dist/cli/main.js', root);
  if (!existsSync(main)) {
    console.error(`evalflow: no compiled code in ${fileURLToPath(new URL('dist/', root))}`);
    process.exit(1);
  }
  await import(main.href);
} else {
  // The `evalflow-source` condition (as `--conditions=evalflow-source` would) makes `evalflow/...`
  // imports, a config file's among them, resolve to src/; then tsx loads TypeScript.
  register('./source-conditions.js', import.meta.url);
  await import('tsx');
  await import(sources.href);
}

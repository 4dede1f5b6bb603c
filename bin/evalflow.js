#!/usr/bin/env node
// The installed CLI runs the compiled code, which `npm pack` builds. In the repository, `npm start`
// and `npm run setup` run the sources through tsx; this bin needs `npm run build` first.
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('evalflow: no compiled code in dist/; run `npm run build` first');
  process.exit(1);
}
await import(main.href);

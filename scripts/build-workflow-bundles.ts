// `npm run build`'s last step: the workflow bundles the compiled engine starts from (plain and
// traced), beside the compiled workflows, so an installed package never bundles at start.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundleWorkflows } from '../src/worker/create-worker.js';
import { prebuiltBundlePath } from '../src/worker/workflow-bundle-cache.js';

const compiledWorkflows = resolve('dist/workflows/index.js');
for (const tracing of [false, true]) {
  const { code } = await bundleWorkflows({ tracing });
  writeFileSync(prebuiltBundlePath(tracing, compiledWorkflows), code);
}

import { rmSync } from 'node:fs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import app from '../../examples/quickstart/evalflow.config.js';
import { DEFAULTS } from '../../src/config/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { finished, runTypeScript } from '../support/processes.js';
import { devServerEnvironment } from '../support/temporal.js';
import { blocksOf, writeModule } from './doc-blocks.js';

// docs/client.md's TypeScript blocks, run in order as one program, as a reader pasting them
// would, against the real API (the quickstart app, a worker on the dev server, the relays), with
// a key for the principal its first block names. Its `baseUrl` must be the API's default
// address, which the run then swaps for the test server's.

const document = 'docs/client.md';
let env: TestWorkflowEnvironment;
let h: ApiHarness;
let file: string | undefined;

beforeAll(async () => {
  env = await devServerEnvironment();
  h = await startApi(env, app);
});
afterAll(async () => {
  if (file) rmSync(file, { force: true });
  await h?.close();
  await env?.teardown();
});

it("runs docs/client.md's blocks against the API at the default address", async () => {
  const [first] = blocksOf(document).filter((block) => block.language === 'ts');
  const defaultUrl = `http://${DEFAULTS.apiHost}:${DEFAULTS.apiPort}`;
  expect(first?.text).toContain(`baseUrl: '${defaultUrl}'`);
  const principal = /--principal (\S+?)`/.exec(first?.text ?? '')?.[1] ?? '';
  expect(principal).not.toBe('');

  const written = writeModule(document, '', {
    edit: (text) => text.replaceAll(`'${defaultUrl}'`, `'${h.url}'`),
  });
  file = written.file;
  const ran = await finished(
    runTypeScript(file, [], {
      cwd: process.cwd(),
      env: { ...process.env, EVALFLOW_KEY: await h.key(principal, 'docs-client') },
    }),
  );
  expect(ran.err).toBe('');
  expect(ran.code).toBe(0);
  // The error block's not_found, then the event stream up to the run's end.
  const lines = ran.out.trim().split('\n');
  expect(lines[0]).toBe('run r-missing');
  expect(lines.slice(1).map((line) => line.split(' ')[1])).toEqual([
    'thread_created',
    'run_started',
    'message_posted',
    'run_ended',
  ]);
});

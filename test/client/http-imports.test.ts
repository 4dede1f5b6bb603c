import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/processes.js';

// What importing a module loads, in a fresh node: every ES module resolved (a loader hook
// records them) and every CommonJS module required (the require cache at the end).

const dir = mkdtempSync(join(tmpdir(), 'evalflow-imports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(
  join(dir, 'hooks.mjs'),
  `import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, resolved.url + '\\n');
  return resolved;
}
`,
);
writeFileSync(
  join(dir, 'register.mjs'),
  `import { register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url), { data: { file: process.env.LOADED_FILE } });
`,
);

async function loadedBy(entry: string): Promise<string[]> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, '');
  const script = `await import(${JSON.stringify(entry)});
const { createRequire } = await import('node:module');
const { appendFileSync } = await import('node:fs');
appendFileSync(process.env.LOADED_FILE, Object.keys(createRequire(import.meta.url).cache).join('\\n'));`;
  await promisify(execFile)(
    process.execPath,
    [
      '--conditions=evalflow-source',
      '--import',
      'tsx',
      '--import',
      join(dir, 'register.mjs'),
      '--input-type=module',
      '--eval',
      script,
    ],
    { cwd: repoRoot, env: { ...process.env, LOADED_FILE: file } },
  );
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

const packages = (modules: string[]) =>
  [...new Set(modules.flatMap((m) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m)?.[1] ?? []))]
    .filter((name) => name !== 'tsx' && name !== 'esbuild' && name !== 'get-tsconfig')
    .sort();

describe('what the HTTP client loads', () => {
  it('sees fastify and the Temporal SDK when the API itself is imported (the check can fail)', async () => {
    const loaded = packages(await loadedBy('./src/api/index.ts'));
    expect(loaded).toContain('fastify');
    expect(loaded).toContain('@temporalio/client');
  }, 30_000);

  it('loads no package at all with evalflow/client: no Temporal, no driver, no fastify', async () => {
    const modules = await loadedBy('evalflow/client');
    expect(packages(modules)).toEqual([]);
    expect(modules.every((m) => m.includes('/src/client/') || !m.includes('/src/'))).toBe(true);
  }, 30_000);

  // The OpenTelemetry API (no SDK: its calls are no-ops until a host registers one) is what the
  // LLM judge's `chat` spans are made with.
  it('loads zod, uuid and the OpenTelemetry API alone with the root entry, evalflow: no Temporal package, no driver', async () => {
    expect(packages(await loadedBy('evalflow'))).toEqual(['@opentelemetry/api', 'uuid', 'zod']);
  }, 30_000);
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  cachedWorkflowBundle,
  prebuiltBundlePath,
} from '../../src/worker/workflow-bundle-cache.js';

// The cache of the workflow bundle between starts, on a small workflows folder of its own and a
// bundler that counts its calls (the real one takes seconds).

let root: string;
let home: string;
let workflowsPath: string;
let bundled: { tracing: boolean }[];
const bundle = async (options: { tracing: boolean }) => {
  bundled.push(options);
  return { code: `bundle ${bundled.length} tracing=${options.tracing}` };
};
const get = (tracing = false) => cachedWorkflowBundle({ home, tracing, bundle, workflowsPath });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'evalflow-bundle-cache-'));
  home = join(root, 'home');
  mkdirSync(join(root, 'workflows'));
  mkdirSync(join(root, 'core'));
  workflowsPath = join(root, 'workflows', 'index.ts');
  writeFileSync(
    workflowsPath,
    "import { proxyActivities } from '@temporalio/workflow';\nexport * from './run.js';\n",
  );
  writeFileSync(join(root, 'workflows', 'run.ts'), "import { decide } from '../core/decide.js';\n");
  writeFileSync(join(root, 'core', 'decide.ts'), 'export const decide = 1;\n');
  bundled = [];
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const cacheFiles = () => readdirSync(join(home, 'workflow-bundles'));

describe('cachedWorkflowBundle', () => {
  it('bundles on the first start and reads the cache on the next, with the same code', async () => {
    const first = await get();
    const second = await get();
    expect(first).toEqual({ code: 'bundle 1 tracing=false', source: 'bundled' });
    expect(second).toEqual({ code: 'bundle 1 tracing=false', source: 'cache' });
    expect(bundled).toHaveLength(1);
  });

  it('bundles again when a module the workflows import changes, and forgets the stale one', async () => {
    await get();
    writeFileSync(join(root, 'core', 'decide.ts'), 'export const decide = 2;\n');
    const changed = await get();
    expect(changed).toEqual({ code: 'bundle 2 tracing=false', source: 'bundled' });
    expect(cacheFiles()).toHaveLength(1);
    // Back to the first source: a new key again, never the file of another one.
    writeFileSync(join(root, 'core', 'decide.ts'), 'export const decide = 1;\n');
    expect((await get()).source).toBe('bundled');
    expect(await get()).toEqual({ code: 'bundle 3 tracing=false', source: 'cache' });
  });

  it('keeps a bundle per tracing flag, each bundled with its flag', async () => {
    await get(false);
    const traced = await get(true);
    expect(traced).toEqual({ code: 'bundle 2 tracing=true', source: 'bundled' });
    expect(bundled).toEqual([{ tracing: false }, { tracing: true }]);
    expect((await get(false)).source).toBe('cache');
    expect((await get(true)).source).toBe('cache');
  });

  it('rebuilds a torn or altered cache file instead of running it', async () => {
    await get();
    const [name] = cacheFiles();
    const file = join(home, 'workflow-bundles', name ?? '');
    const whole = readFileSync(file, 'utf8');
    writeFileSync(file, whole.slice(0, whole.length - 3));
    expect(await get()).toEqual({ code: 'bundle 2 tracing=false', source: 'bundled' });
    writeFileSync(file, readFileSync(file, 'utf8').replace('bundle 2', 'bundle 9'));
    expect((await get()).source).toBe('bundled');
    writeFileSync(file, '');
    expect((await get()).source).toBe('bundled');
    expect(bundled).toHaveLength(4);
  });

  it('leaves no temporary file behind', async () => {
    await get();
    await get(true);
    expect(cacheFiles().filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('starts compiled workflows from the prebuilt bundle beside them, without bundling', async () => {
    const compiled = join(root, 'workflows', 'index.js');
    writeFileSync(compiled, "export * from './run.js';\n");
    writeFileSync(prebuiltBundlePath(false, compiled), 'prebuilt code');
    const found = await cachedWorkflowBundle({
      home,
      tracing: false,
      bundle,
      workflowsPath: compiled,
    });
    expect(found).toEqual({ code: 'prebuilt code', source: 'prebuilt' });
    expect(bundled).toEqual([]);
  });
});

describe('cachedWorkflowBundle while a source changes', () => {
  it('caches nothing when a source changed while the bundler ran', async () => {
    const editing = async (options: { tracing: boolean }) => {
      writeFileSync(join(root, 'core', 'decide.ts'), 'export const decide = 3;\n');
      return bundle(options);
    };
    const first = await cachedWorkflowBundle({
      home,
      tracing: false,
      bundle: editing,
      workflowsPath,
    });
    expect(first.source).toBe('bundled');
    expect(await get()).toEqual({ code: 'bundle 2 tracing=false', source: 'bundled' });
  });
});

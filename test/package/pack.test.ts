import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The package as a user gets it: built, packed, installed into an empty project, and run by plain
// Node with no tsx and no loader.

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'evalflow-pack-'));
const consumer = join(work, 'consumer');
const installed = join(consumer, 'node_modules', 'evalflow');

type Exports = Record<string, { types: string; default: string }>;
const manifest = JSON.parse(await readFile(join(repo, 'package.json'), 'utf8')) as {
  exports: Exports;
};
const specifiers = Object.keys(manifest.exports).map((subpath) =>
  subpath === '.' ? 'evalflow' : `evalflow/${subpath.slice(2)}`,
);

// Children get no NODE_OPTIONS, so no loader the test runner may have set reaches them.
const { NODE_OPTIONS: _, ...plainEnv } = process.env;

/** Plain `node` in the consumer project. */
async function node(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, args, { cwd: consumer, env: plainEnv });
  return stdout;
}

/** Runs an ES module script in the consumer project and parses the JSON it prints last. */
async function evaluate<T>(script: string, ...args: string[]): Promise<T> {
  const lines = (await node(['--input-type=module', '--eval', script, '--', ...args])).trim();
  return JSON.parse(lines.split('\n').at(-1) ?? 'null') as T;
}

beforeAll(async () => {
  // `npm pack` runs `prepack`, the build, so the tarball holds a fresh dist/.
  const packed = join(work, 'packed');
  mkdirSync(packed);
  await run('npm', ['pack', '--pack-destination', packed, '--loglevel=error'], { cwd: repo });
  const tarball = readdirSync(packed).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${packed}`);

  mkdirSync(consumer);
  await writeFile(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  // npm's cache holds the repository's own install, but a fresh folder resolves each dependency's
  // range afresh and needs registry metadata the lockfile install never fetched:
  // `--prefer-offline` takes what the cache has and asks the registry for the rest.
  // `--ignore-scripts` skips better-sqlite3's install script, which would try to download a
  // prebuilt binary; the other skipped scripts (esbuild, @swc/core, protobufjs) only check what
  // their optional platform packages already installed. The native addon is then the one the
  // repository built for this Node, copied in: same pinned version, same machine.
  await run(
    'npm',
    [
      'install',
      join(packed, tarball),
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
    ],
    { cwd: consumer },
  );
  const addon = join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(join(consumer, 'node_modules', addon, '..'), { recursive: true });
  copyFileSync(join(repo, 'node_modules', addon), join(consumer, 'node_modules', addon));
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the installed package', () => {
  it('ships the build and the bin, and no tests', () => {
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'bin', 'evalflow.js'))).toBe(true);
    // The reviewers' page, built; the API serves it from here (src/api/plugins/ui-page.ts).
    expect(existsSync(join(installed, 'dist', 'ui', 'index.html'))).toBe(true);
    expect(existsSync(join(installed, 'test'))).toBe(false);
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      expect(existsSync(join(installed, target.types)), `${subpath} types`).toBe(true);
      expect(existsSync(join(installed, target.default)), `${subpath} code`).toBe(true);
    }
  });

  it('imports every subpath of its exports under plain node, and each exports something', async () => {
    const counts = await evaluate<Record<string, number>>(
      `const counts = {};
       for (const specifier of process.argv.slice(1)) {
         counts[specifier] = Object.keys(await import(specifier)).length;
       }
       console.log(JSON.stringify(counts));`,
      ...specifiers,
    );
    expect(Object.keys(counts)).toEqual(specifiers);
    for (const specifier of specifiers) expect(counts[specifier], specifier).toBeGreaterThan(0);
  });

  it('keeps the root pure: importing evalflow loads no database driver and no Temporal worker', async () => {
    // better-sqlite3, pg and @temporalio/worker are CommonJS, so loading them from ESM still
    // registers their files in the CommonJS module cache. evalflow/worker is the control: it
    // loads all three, so an empty list for the root is not a blind check.
    const loaded = (specifier: string) =>
      evaluate<string[]>(
        `import { createRequire } from 'node:module';
         await import(process.argv[1]);
         const files = Object.keys(createRequire(import.meta.url).cache);
         const heavy = ['better-sqlite3', 'pg', '@temporalio/worker'];
         console.log(JSON.stringify(heavy.filter((name) =>
           files.some((file) => file.includes('/node_modules/' + name + '/')))));`,
        specifier,
      );
    expect(await loaded('evalflow/worker')).toEqual(['better-sqlite3', 'pg', '@temporalio/worker']);
    expect(await loaded('evalflow')).toEqual([]);
  });

  it('opens an SQLite store and bundles the workflows from its compiled code', async () => {
    const result = await evaluate<{ recorded: string; bundled: boolean }>(
      `import { defineConfig } from 'evalflow';
       import { openSqliteStore } from 'evalflow/store';
       import { bundleWorkflows } from 'evalflow/worker';
       const store = openSqliteStore(':memory:', defineConfig({}));
       const outcome = await store.execute({
         workspace_id: 'w',
         actor: { kind: 'system', name: 'system' },
         command: { type: 'create_thread', thread_id: 't' },
       });
       await store.close();
       const bundle = await bundleWorkflows();
       const bundled = bundle.code.includes(process.argv[1]);
       console.log(JSON.stringify({ recorded: outcome.type, bundled }));`,
      // The bundle names its modules by their path from the working folder: the workflows must
      // come from the installed dist.
      './node_modules/evalflow/dist/workflows/evaluate-run.js',
    );
    expect(result.recorded).toBe('recorded');
    expect(result.bundled).toBe(true);
  }, 60_000);

  it('runs the evalflow bin, which lists its commands', async () => {
    const { stdout } = await run(join(consumer, 'node_modules', '.bin', 'evalflow'), ['--help'], {
      cwd: consumer,
      env: plainEnv,
    });
    for (const command of ['setup', 'start', 'conformance']) {
      expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
  });

  it('runs the compiled dist/ under node_modules, never the sources it also ships', async () => {
    const main = join(installed, 'dist', 'cli', 'main.js');
    renameSync(main, `${main}.away`);
    try {
      const failed = await run(join(consumer, 'node_modules', '.bin', 'evalflow'), ['--help'], {
        cwd: consumer,
        env: plainEnv,
      }).catch((error: { code: number; stderr: string }) => error);
      expect(failed).toMatchObject({ code: 1 });
      expect((failed as { stderr: string }).stderr).toBe(
        `evalflow: no compiled code in ${join(installed, 'dist')}/\n`,
      );
    } finally {
      renameSync(`${main}.away`, main);
    }
  });
});

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import type { WorkflowBundle } from '@temporalio/worker';
import { bundleWorkflows, WORKFLOWS_PATH } from './create-worker.js';
import { readWholeFile, writeWholeFile } from './whole-file.js';

// The workflow bundle a start reuses: compiling the workflows is most of a start's time (seconds),
// and it only changes with the workflow sources, the packages they and the bundler come from, and
// the tracing interceptors. The package ships its bundles beside the compiled workflows
// (`npm run build`); a checkout keeps one per variant under its state folder, named by a hash of
// all that, so a stale one is never found.

/** Where `npm run build` writes the prebuilt bundle of a variant, beside the compiled workflows. */
export const prebuiltBundlePath = (tracing: boolean, workflowsPath = WORKFLOWS_PATH): string =>
  join(dirname(workflowsPath), tracing ? 'bundle-tracing.cjs' : 'bundle.cjs');

/** The package's prebuilt bundle of a variant, when running compiled and it is there. */
export function prebuiltWorkflowBundle(
  tracing: boolean,
  workflowsPath = WORKFLOWS_PATH,
): string | null {
  const prebuilt = prebuiltBundlePath(tracing, workflowsPath);
  return workflowsPath.endsWith('.js') && existsSync(prebuilt)
    ? readFileSync(prebuilt, 'utf8')
    : null;
}

export interface CachedBundleOptions {
  /** The state folder (`.evalflow/`): the cache is its `workflow-bundles/`. */
  home: string;
  tracing: boolean;
  /** Builds a bundle on a miss (default `bundleWorkflows`); tests count its calls. */
  bundle?: (options: { tracing: boolean }) => Promise<WorkflowBundle>;
  /** The module the bundle starts from (default the workflows' index). */
  workflowsPath?: string;
}

export interface CachedBundle {
  code: string;
  /** Where it came from: the package's prebuilt file, the cache, or the bundler just now. */
  source: 'prebuilt' | 'cache' | 'bundled';
}

/**
 * The workflow bundle for this start: the package's prebuilt one when running compiled, else the
 * cached one whose key matches the sources now, else a new one, written to the cache.
 */
export async function cachedWorkflowBundle(options: CachedBundleOptions): Promise<CachedBundle> {
  const workflowsPath = options.workflowsPath ?? WORKFLOWS_PATH;
  const prebuilt = prebuiltWorkflowBundle(options.tracing, workflowsPath);
  if (prebuilt !== null) return { code: prebuilt, source: 'prebuilt' };
  const dir = join(options.home, 'workflow-bundles');
  const variant = options.tracing ? 'tracing' : 'plain';
  const key = workflowBundleKey(workflowsPath, options.tracing);
  const file = join(dir, `${variant}-${key}.js`);
  const cached = readSealed(file);
  if (cached !== null) return { code: cached, source: 'cache' };
  const { code } = await (options.bundle ?? bundleWorkflows)({ tracing: options.tracing });
  // A source edited while the bundler read them: which version it bundled is unknown, so this
  // bundle serves this start only.
  if (workflowBundleKey(workflowsPath, options.tracing) !== key) return { code, source: 'bundled' };
  mkdirSync(dir, { recursive: true });
  writeSealed(file, code);
  // Older bundles of this variant are stale for good: their sources are gone. (Not another
  // process's temporary file: that one is being written.)
  for (const name of readdirSync(dir).filter((each) => each.endsWith('.js'))) {
    if (name.startsWith(`${variant}-`) && join(dir, name) !== file)
      rmSync(join(dir, name), { force: true });
  }
  return { code, source: 'bundled' };
}

/**
 * A hash of what the bundle is made of: every local module the workflows reach through their
 * imports (found by reading them, as the bundler does), the version of each package they import,
 * of the SDK's workflow package and of the bundler, and the tracing flag with its interceptors'
 * package.
 */
export function workflowBundleKey(workflowsPath: string, tracing: boolean): string {
  const hash = createHash('sha256');
  const { files, packages } = workflowSources(workflowsPath);
  // Named from the workflows' folder: checkouts of the same sources share a key.
  const base = dirname(workflowsPath);
  for (const file of [...files].sort()) {
    hash
      .update(`${relative(base, file)}\0`)
      .update(readFileSync(file))
      .update('\0');
  }
  const bundlerPackages = ['@temporalio/workflow', '@temporalio/worker'];
  if (tracing) bundlerPackages.push('@temporalio/interceptors-opentelemetry');
  for (const name of [...new Set([...packages, ...bundlerPackages])].sort()) {
    hash.update(`${name}@${packageVersion(name)}\0`);
  }
  hash.update(`tracing=${tracing}`);
  return hash.digest('hex').slice(0, 32);
}

// Static imports, re-exports and dynamic imports of a module, by their specifier.
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;

/** The local files reachable from `entry` through relative imports, and the packages imported. */
export function workflowSources(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [resolve(entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      if (specifier.startsWith('node:')) continue;
      if (!specifier.startsWith('.')) packages.add(packageName(specifier));
      else {
        const local = localModule(resolve(dirname(file), specifier));
        if (local !== null) pending.push(local);
      }
    }
  }
  return { files, packages };
}

// Sources import `./x.js` whether they are the `.ts` file (a checkout) or the `.js` one (dist).
// A specifier that names no file (in a comment, say) is no part of the bundle either.
function localModule(path: string): string | null {
  if (existsSync(path)) return path;
  const ts = path.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : null;
}

const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The installed version of `name` (as this package finds it), from its entry up to its manifest. */
function packageVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (parsed.name === name) return parsed.version ?? 'unversioned';
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`the workflow bundle's key: no package.json for ${name}`);
    dir = parent;
  }
}

// A cached file holds its code's hash on its first line: a torn or altered file is rebuilt, not run.
const SEAL = '// evalflow workflow bundle sha256=';

function readSealed(file: string): string | null {
  const text = readWholeFile(file);
  if (text === null) return null;
  const newline = text.indexOf('\n');
  if (!text.startsWith(SEAL) || newline < 0) return null;
  const code = text.slice(newline + 1);
  return text.slice(SEAL.length, newline) === sha256(code) ? code : null;
}

/** Written whole (aside, then renamed): a crash mid-write leaves no half bundle in place. */
function writeSealed(file: string, code: string): void {
  writeWholeFile(file, `${SEAL}${sha256(code)}\n${code}`);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

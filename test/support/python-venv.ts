import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// A Python virtual environment made once and installed again only when its pins change, for the
// tests and benchmarks that run Python clients (pip from PyPI, exact pins). No vitest here: the
// benchmarks use it too.

export interface Ran {
  code: number | null;
  out: string;
  err: string;
  /** The command line, its exit code and its output, for an error message. */
  shown: string;
}

/** Runs a command to its end, its output collected. */
export function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<Ran> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      resolve({
        code,
        out,
        err,
        shown: `${command} ${args.join(' ')} exited ${code}\n${out}${err}`,
      }),
    );
  });
}

/**
 * The venv at `venv` with `pip install <install>` done, again only when one of the `pinned`
 * files (requirements, a package's pyproject) changed since; its python.
 */
export async function readyVenv(
  venv: string,
  pinned: readonly string[],
  install: readonly string[],
): Promise<string> {
  const python = join(venv, 'bin', 'python');
  const stamp = join(venv, 'evalflow-installed');
  const hash = createHash('sha256');
  for (const file of pinned) hash.update(readFileSync(file));
  const wanted = hash.digest('hex');
  const works = existsSync(python) && (await run(python, ['-c', 'import sys'])).code === 0;
  if (works && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return python;
  if (!works) {
    rmSync(venv, { recursive: true, force: true });
    const made = await run('python3', ['-m', 'venv', venv]);
    if (made.code !== 0) throw new Error(made.shown);
  }
  const installed = await run(python, [
    '-m',
    'pip',
    'install',
    '--quiet',
    '--disable-pip-version-check',
    ...install,
  ]);
  if (installed.code !== 0) throw new Error(installed.shown);
  writeFileSync(stamp, wanted);
  return python;
}

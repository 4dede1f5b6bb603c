// A virtual environment of the bench's own with the seeds' Python library (evalr 0.1.0) from
// PyPI, on a Python ≥ 3.12: EVALFLOW_BENCH_PYTHON, else the newest pyenv version, else python3.13,
// python3.12 or python3 on PATH. Made once under .evalflow/bench and reused.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const EVALR_REQUIREMENT = 'evalr==0.1.0';
const VENV = resolve('.evalflow/bench/evalr-0.1.0');

const versionOf = (python: string): [number, number] | null => {
  try {
    const out = execFileSync(python, ['-c', 'import sys; print(*sys.version_info[:2])'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [major, minor] = out.toString().trim().split(' ').map(Number);
    return major === undefined || minor === undefined ? null : [major, minor];
  } catch {
    return null;
  }
};

const recent = (python: string) => {
  const version = versionOf(python);
  return version !== null && (version[0] > 3 || (version[0] === 3 && version[1] >= 12));
};

function pyenvPythons(): string[] {
  const roots = [process.env.PYENV_ROOT, join(homedir(), '.pyenv')].filter(
    (root): root is string => root !== undefined && root !== '',
  );
  for (const root of roots) {
    const versions = join(root, 'versions');
    if (!existsSync(versions)) continue;
    const byNewest = readdirSync(versions)
      .filter((name) => /^\d+\.\d+(\.\d+)?$/.test(name))
      .sort((a, b) => b.localeCompare(a, 'en', { numeric: true }));
    return byNewest.map((name) => join(versions, name, 'bin', 'python'));
  }
  return [];
}

/** A Python ≥ 3.12 to make the environment with, or undefined when none is found. */
export function findPython(): string | undefined {
  const candidates = [
    process.env.EVALFLOW_BENCH_PYTHON,
    ...pyenvPythons(),
    'python3.13',
    'python3.12',
    'python3',
  ].filter((candidate): candidate is string => candidate !== undefined && candidate !== '');
  return candidates.find(recent);
}

/**
 * The environment's python with evalr installed, or the reason there is none (no Python ≥ 3.12,
 * or the install failed).
 */
export function evalrPython(): { python: string } | { skipped: string } {
  const python = join(VENV, 'bin', 'python');
  const installed = () => {
    try {
      execFileSync(python, ['-c', 'import evalr.core'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (existsSync(python) && installed()) return { python };
  const base = findPython();
  if (base === undefined) {
    return { skipped: 'no Python ≥ 3.12 found (EVALFLOW_BENCH_PYTHON, pyenv, PATH)' };
  }
  try {
    execFileSync(base, ['-m', 'venv', '--clear', VENV], { stdio: 'ignore' });
    execFileSync(python, ['-m', 'pip', 'install', '--quiet', EVALR_REQUIREMENT], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').at(-1);
    return { skipped: `installing ${EVALR_REQUIREMENT} failed: ${stderr ?? String(error)}` };
  }
  return installed() ? { python } : { skipped: `${EVALR_REQUIREMENT} did not import` };
}

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// schemathesis from PyPI, pinned (schemathesis-requirements.txt), in a venv of its own under
// .evalflow/, made once and reinstalled only when the pins change. Python 3.11 or later.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const requirements = fileURLToPath(new URL('./schemathesis-requirements.txt', import.meta.url));
const venv = join(repoRoot, '.evalflow', 'schemathesis-venv');
const python = join(venv, 'bin', 'python');
const stamp = join(venv, 'evalflow-installed');

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

export function run(
  command: string,
  args: string[],
  env = process.env,
  cwd = repoRoot,
): Promise<Ran> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    child.once('exit', (code) => resolve({ code, out, err }));
  });
}

const shown = (what: string, ran: Ran) => `${what} exited ${ran.code}\n${ran.out}${ran.err}`;

/** The venv's `schemathesis` executable, installing the pins first when they changed. */
export async function readySchemathesis(): Promise<string> {
  const wanted = createHash('sha256').update(readFileSync(requirements)).digest('hex');
  const works = existsSync(python) && (await run(python, ['-c', 'import sys'])).code === 0;
  if (!(works && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted)) {
    if (!works) {
      rmSync(venv, { recursive: true, force: true });
      const made = await run('python3', ['-m', 'venv', venv]);
      if (made.code !== 0) throw new Error(shown('python3 -m venv', made));
    }
    const installed = await run(python, [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '-r',
      requirements,
    ]);
    if (installed.code !== 0) throw new Error(shown('pip install', installed));
    writeFileSync(stamp, wanted);
  }
  return join(venv, 'bin', 'schemathesis');
}

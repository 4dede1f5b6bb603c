import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { finished, repoRoot, temporalBinaries } from '../support/processes.js';

// The Python client's own suite (clients/python/tests, pytest), run as part of `npm test`: its
// tests start a real `evalflow start` from these sources and drive it through the client. The
// virtual environment is made once and reinstalled only when the pins or the package change.

const client = join(repoRoot, 'clients', 'python');
const venv = join(client, '.venv');
const python = join(venv, 'bin', 'python');
const stamp = join(venv, 'evalflow-installed');

async function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = await finished(
    spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  return {
    ...result,
    shown: `${command} ${args.join(' ')} exited ${result.code}\n${result.out}${result.err}`,
  };
}

/** The venv with the pinned test dependencies and the client installed editable. */
async function readyVenv(): Promise<void> {
  const wanted = createHash('sha256')
    .update(readFileSync(join(client, 'requirements-test.txt')))
    .update(readFileSync(join(client, 'pyproject.toml')))
    .digest('hex');
  const works = existsSync(python) && (await run(python, ['-c', 'import sys'])).code === 0;
  if (works && existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
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
    '-r',
    join(client, 'requirements-test.txt'),
    '-e',
    client,
  ]);
  if (installed.code !== 0) throw new Error(installed.shown);
  writeFileSync(stamp, wanted);
}

it('passes the Python client suite against a real evalflow start', {
  timeout: 900_000,
}, async () => {
  await readyVenv();
  const pytest = await run(python, ['-m', 'pytest', join(client, 'tests'), '-q'], {
    ...process.env,
    ...temporalBinaries(),
    // The same Node that runs this suite runs the server (CI runs it on two).
    EVALFLOW_NODE: process.execPath,
  });
  if (pytest.code !== 0) console.error(pytest.shown);
  expect(pytest.code, 'pytest failed; its output is above').toBe(0);
  expect(pytest.out).toMatch(/\d+ passed/);
});

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readyVenv } from '../../test/support/python-venv.js';

// schemathesis from PyPI, pinned (schemathesis-requirements.txt), in a venv of its own under
// .evalflow/, made once and reinstalled only when the pins change. Python 3.11 or later.

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const requirements = fileURLToPath(new URL('./schemathesis-requirements.txt', import.meta.url));
const venv = join(repoRoot, '.evalflow', 'schemathesis-venv');

/** The venv's `schemathesis` executable, installing the pins first when they changed. */
export async function readySchemathesis(): Promise<string> {
  await readyVenv(venv, [requirements], ['-r', requirements]);
  return join(venv, 'bin', 'schemathesis');
}

import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot, temporalBinaries } from '../support/processes.js';
import { readyVenv, run } from '../support/python-venv.js';

// The Python client's own suite (clients/python/tests, pytest), run as part of `npm test`: its
// tests start a real `evalflow start` from these sources and drive it through the client. The
// virtual environment is made once and reinstalled only when the pins or the package change.

const client = join(repoRoot, 'clients', 'python');

/** The venv with the pinned test dependencies and the client installed editable. */
const readyClientVenv = () =>
  readyVenv(
    join(client, '.venv'),
    [join(client, 'requirements-test.txt'), join(client, 'pyproject.toml')],
    ['-r', join(client, 'requirements-test.txt'), '-e', client],
  );

it('passes the Python client suite against a real evalflow start', {
  timeout: 900_000,
}, async () => {
  const python = await readyClientVenv();
  const pytest = await run(python, ['-m', 'pytest', join(client, 'tests'), '-q'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...temporalBinaries(),
      // The same Node that runs this suite runs the server (CI runs it on two).
      EVALFLOW_NODE: process.execPath,
    },
  });
  if (pytest.code !== 0) console.error(pytest.shown);
  expect(pytest.code, 'pytest failed; its output is above').toBe(0);
  expect(pytest.out).toMatch(/\d+ passed/);
});

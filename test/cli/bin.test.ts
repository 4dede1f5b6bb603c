import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { finished, repoRoot } from '../support/processes.js';

// Which code bin/evalflow.js runs, in each place it is found: a copy of the bin beside a dist/
// and a src/ that each say who they are. Inside the repository (under .evalflow/test), so the
// sources' tsx resolves as in a checkout; test/package runs the real thing installed and cloned.

mkdirSync('.evalflow/test', { recursive: true });
const dir = mkdtempSync(resolve('.evalflow/test/bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A package folder with the bin, and a dist/ or src/ main that prints its name. */
function layout(folder: string, parts: { dist?: boolean; src?: boolean }): string {
  mkdirSync(join(folder, 'bin'), { recursive: true });
  for (const file of ['evalflow.js', 'source-conditions.js']) {
    copyFileSync(join(repoRoot, 'bin', file), join(folder, 'bin', file));
  }
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
  if (parts.dist) {
    mkdirSync(join(folder, 'dist', 'cli'), { recursive: true });
    writeFileSync(join(folder, 'dist', 'cli', 'main.js'), "console.log('dist');\n");
  }
  if (parts.src) {
    mkdirSync(join(folder, 'src', 'cli'), { recursive: true });
    // Type syntax: only tsx runs it.
    writeFileSync(
      join(folder, 'src', 'cli', 'main.ts'),
      "const name: string = 'src';\nconsole.log(name);\n",
    );
  }
  return join(folder, 'bin', 'evalflow.js');
}

const { NODE_OPTIONS: _, ...plainEnv } = process.env;
const run = (bin: string) =>
  finished(spawn(process.execPath, [bin], { env: plainEnv, stdio: ['ignore', 'pipe', 'pipe'] }));

describe('bin/evalflow.js', () => {
  it('runs the sources in a checkout, even beside a dist/ (which may be stale)', async () => {
    const ran = await run(layout(join(dir, 'checkout'), { dist: true, src: true }));
    expect(ran).toMatchObject({ code: 0, out: 'src\n', err: '' });
  });

  it('runs dist/ when installed under node_modules, though the package ships its sources', async () => {
    const ran = await run(layout(join(dir, 'node_modules', 'evalflow'), { dist: true, src: true }));
    expect(ran).toMatchObject({ code: 0, out: 'dist\n', err: '' });
  });

  it('runs dist/ where there are no sources, as in the image', async () => {
    const ran = await run(layout(join(dir, 'image'), { dist: true }));
    expect(ran).toMatchObject({ code: 0, out: 'dist\n', err: '' });
  });

  it('says so in one line when installed without dist/', async () => {
    const folder = join(dir, 'broken', 'node_modules', 'evalflow');
    const ran = await run(layout(folder, { src: true }));
    expect(ran).toMatchObject({
      code: 1,
      out: '',
      err: `evalflow: no compiled code in ${join(folder, 'dist')}/\n`,
    });
  });
});

// The command line runs in-process in the other CLI tests; what only a process shows is here:
// the exit code `src/cli/main.ts` gives the process, and what reaches its stdout and stderr.
describe('bin/evalflow.js in this checkout, as a process', () => {
  const bin = join(repoRoot, 'bin', 'evalflow.js');
  const evalflow = (...args: string[]) =>
    finished(
      spawn(process.execPath, [bin, ...args], {
        cwd: dir,
        env: plainEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );

  it('prints the version and exits 0', async () => {
    expect(await evalflow('--version')).toMatchObject({ code: 0, out: '0.1.0\n', err: '' });
  });

  it('exits 1 with one line on stderr for a command line that is wrong', async () => {
    expect(await evalflow('frob')).toMatchObject({
      code: 1,
      out: '',
      err: "evalflow: unknown command 'frob' (see evalflow --help)\n",
    });
  });

  it('exits 1 when a command fails without an error of its own (a failed conformance case)', async () => {
    const cases = join(dir, 'failing-case.json');
    writeFileSync(
      cases,
      JSON.stringify({
        description: 'a case that expects what the core refuses',
        cases: [
          {
            name: 'an evaluator creates a thread',
            actor: { kind: 'evaluator', name: 'tone', version: '2' },
            command: { type: 'create_thread', thread_id: 't' },
            expect: { outcome: { type: 'recorded' } },
          },
        ],
      }),
    );
    const ran = await evalflow('conformance', cases);
    expect(ran.code).toBe(1);
    expect(ran.out.trimEnd().split('\n').at(-1)).toBe('0 passed, 1 failed');
  });
});

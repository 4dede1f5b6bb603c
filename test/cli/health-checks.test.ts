import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { checkLine } from '../../src/cli/commands/doctor.js';
import {
  checkConfigFile,
  checkDevServer,
  checkScoreSink,
  checkStore,
  checkTemporal,
  LATEST_SCHEMA,
} from '../../src/cli/supervision/health-checks.js';
import { builtinApp, loadConfig } from '../../src/config/index.js';
import { openStore } from '../../src/store/index.js';
import { cliInProcess } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { LangfuseTestServer } from '../support/langfuse-server/index.js';
import { embeddedDefaults } from '../support/processes.js';

// `evalflow doctor`'s checks against real parts: SQLite files, a Langfuse-compatible server, a
// closed port where Temporal should be, pid files naming live and dead processes. The checks of a
// running Temporal are in test/cli/commands.temporal.test.ts.

const dir = mkdtempSync(join(tmpdir(), 'evalflow-doctor-'));
const children: number[] = [];
afterAll(() => {
  for (const pid of children) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});
const folder = (name: string) => {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
};

describe('the store check', () => {
  it('reads the schema version without migrating, and knows a store newer than itself', async () => {
    const path = join(folder('store'), 'evalflow.db');
    const config = loadConfig({ EVALFLOW_SQLITE_PATH: path });
    expect(await checkStore(config)).toMatchObject({
      ok: true,
      detail: expect.stringContaining('does not exist yet'),
    });
    await (await openStore({ ...builtinApp(null), sqlitePath: path })).close();
    expect(await checkStore(config)).toEqual({
      name: 'store',
      ok: true,
      detail: `SQLite at ${path} is at schema version ${LATEST_SCHEMA}, the latest`,
      fix: null,
    });
    const db = new Database(path);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      999,
      'future',
      'now',
    );
    db.close();
    expect(await checkStore(config)).toMatchObject({
      ok: false,
      detail: `SQLite at ${path} is at schema version 999, newer than this evalflow knows (${LATEST_SCHEMA})`,
      fix: 'upgrade evalflow to the release that wrote this store',
    });
  });

  it('fails on a file that is not a store, and an unreachable Postgres, naming no password', async () => {
    const notSqlite = join(folder('junk'), 'evalflow.db');
    writeFileSync(notSqlite, 'not a database');
    expect(await checkStore(loadConfig({ EVALFLOW_SQLITE_PATH: notSqlite }))).toMatchObject({
      ok: false,
      fix: expect.stringContaining('EVALFLOW_SQLITE_PATH'),
    });
    const port = await freePort();
    const postgres = await checkStore(
      loadConfig({ DATABASE_URL: `postgres://ada:hunter2@127.0.0.1:${port}/evalflow` }),
    );
    expect(postgres).toMatchObject({
      ok: false,
      detail: 'the store could not be read (connect ECONNREFUSED)',
    });
    expect(JSON.stringify(postgres)).not.toContain('hunter2');
  });
});

describe('the score sink check', () => {
  it('lists Langfuse’s score configs with the keys, and fails with wrong ones', async () => {
    const langfuse = await LangfuseTestServer.start();
    try {
      const env = { LANGFUSE_BASE_URL: langfuse.url, LANGFUSE_PUBLIC_KEY: langfuse.publicKey };
      expect(
        await checkScoreSink(loadConfig({ ...env, LANGFUSE_SECRET_KEY: langfuse.secretKey })),
      ).toEqual({
        name: 'scores',
        ok: true,
        detail: `Langfuse at ${langfuse.url} lists 0 score configs with these keys`,
        fix: null,
      });
      const wrong = await checkScoreSink(
        loadConfig({ ...env, LANGFUSE_SECRET_KEY: 'sk-lf-wrong' }),
      );
      expect(wrong).toMatchObject({
        ok: false,
        fix: expect.stringContaining('LANGFUSE_SECRET_KEY'),
      });
    } finally {
      await langfuse.close();
    }
  });

  it('checks the score files can be written, or made', async () => {
    const files = folder('files');
    const ok = await checkScoreSink(
      loadConfig({
        EVALFLOW_SCORES_FILE: join(files, 'new/deeper/scores.jsonl'),
        EVALFLOW_SCORE_CONFIGS_FILE: join(files, 'configs.jsonl'),
      }),
    );
    expect(ok.ok).toBe(true);
    // A regular file where a folder must be: nothing can be made under it.
    const blocker = join(files, 'blocker');
    writeFileSync(blocker, '');
    const blocked = await checkScoreSink(
      loadConfig({ EVALFLOW_SCORES_FILE: join(blocker, 'scores.jsonl') }),
    );
    expect(blocked).toEqual({
      name: 'scores',
      ok: false,
      detail: `${blocker} is not a folder, so ${join(blocker, 'scores.jsonl')} cannot be made`,
      fix: 'make it writable, or set EVALFLOW_SCORES_FILE to a writable place',
    });
  });
});

describe('the config check', () => {
  it('names the app it loaded, and the file and problem when it cannot', async () => {
    expect(await checkConfigFile(loadConfig({}), undefined)).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/^app from the built-in evaluators: \d+ evaluator versions/),
    });
    const broken = join(folder('config'), 'evalflow.config.ts');
    writeFileSync(broken, 'export default { evaluators: 3 };\n');
    const check = await checkConfigFile(loadConfig({}), broken);
    expect(check.ok).toBe(false);
    expect(check.detail.startsWith(`${broken}: `)).toBe(true);
    expect(check.fix).toContain('--config');
  });
});

describe('the Temporal check', () => {
  it('fails with a fix when nothing answers at the address', async () => {
    const port = await freePort();
    expect(
      await checkTemporal(loadConfig({ TEMPORAL_ADDRESS: `127.0.0.1:${port}` })),
    ).toMatchObject({
      ok: false,
      detail: expect.stringMatching(
        new RegExp(`^Temporal at 127\\.0\\.0\\.1:${port} did not answer`),
      ),
      fix: 'start that Temporal server, or point TEMPORAL_ADDRESS at a running frontend',
    });
  });
});

describe('the dev server check', () => {
  /** A process whose command line looks like a dev server on `stateFile`. */
  const lookalike = (stateFile: string) => {
    const child = spawn(
      process.execPath,
      ['-e', 'setInterval(() => {}, 60000)', 'server', 'start-dev', '--db-filename', stateFile],
      { stdio: 'ignore' },
    );
    if (child.pid === undefined) throw new Error('no pid');
    children.push(child.pid);
    return child.pid;
  };
  const record = (home: string, pid: number, ownerPid: number) =>
    writeFileSync(
      join(home, 'temporal.pid'),
      JSON.stringify({
        pid,
        port: 7233,
        uiPort: 8233,
        stateFile: join(home, 'temporal.db'),
        owner: { pid: ownerPid, command: null },
        startedAt: new Date().toISOString(),
      }),
    );

  it('finds a server left running by a start that is gone, and says how to stop it', async () => {
    const home = folder('leftover');
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const server = lookalike(join(home, 'temporal.db'));
    record(home, server, gone.pid ?? 1);
    const check = checkDevServer(home);
    expect(check).toEqual({
      name: 'dev server',
      ok: false,
      detail: `dev server pid ${server} (port 7233) is left over from an evalflow start that is gone`,
      fix: `run npx evalflow start here (it stops the leftover first), or kill ${server}`,
    });
    expect(checkLine(check)).toBe(`FAIL dev server   ${check.detail}; fix: ${check.fix}`);
  });

  it('passes a server whose start still runs, a stale pid file, and no pid file', () => {
    const owned = folder('owned');
    const server = lookalike(join(owned, 'temporal.db'));
    const owner = lookalike(join(owned, 'other.db'));
    record(owned, server, owner);
    expect(checkDevServer(owned)).toMatchObject({
      ok: true,
      detail: expect.stringContaining(`belongs to evalflow start pid ${owner}`),
    });
    const stale = folder('stale');
    record(stale, owner, owner);
    expect(checkDevServer(stale)).toMatchObject({
      ok: true,
      detail: expect.stringContaining('names no running dev server'),
    });
    expect(checkDevServer(folder('none'))).toMatchObject({
      ok: true,
      detail: expect.stringContaining('no dev server recorded'),
    });
  });
});

describe('evalflow doctor', () => {
  it('prints one line per check and exits 1 on a failure; --json says the same', async () => {
    const home = folder('cli');
    const port = await freePort();
    const env = { ...embeddedDefaults(), TEMPORAL_ADDRESS: `127.0.0.1:${port}` };
    const [lines, json] = await Promise.all([
      cliInProcess(['doctor'], { cwd: home, env }),
      cliInProcess(['doctor', '--json'], { cwd: home, env }),
    ]);
    expect(lines.code).toBe(1);
    expect(
      lines.out
        .trim()
        .split('\n')
        .map((line) => /^(OK|FAIL) +(dev server|\S+) /.exec(line)?.slice(1).join(' ')),
    ).toEqual(['OK config', 'FAIL temporal', 'OK store', 'OK scores', 'OK dev server']);
    expect(lines.out).toContain(
      '; fix: start that Temporal server, or point TEMPORAL_ADDRESS at a running frontend',
    );
    expect(json.code).toBe(1);
    const report = JSON.parse(json.out) as { ok: boolean; checks: { name: string; ok: boolean }[] };
    expect(report.ok).toBe(false);
    expect(report.checks.map((c) => [c.name, c.ok])).toEqual([
      ['config', true],
      ['temporal', false],
      ['store', true],
      ['scores', true],
      ['dev server', true],
    ]);

    const halfSet = await cliInProcess(['doctor', '--json'], {
      cwd: home,
      env: { ...env, LANGFUSE_BASE_URL: 'http://127.0.0.1:1' },
    });
    expect(halfSet.code).toBe(1);
    expect(JSON.parse(halfSet.out).checks).toEqual([
      expect.objectContaining({
        name: 'environment',
        ok: false,
        detail: 'set all of LANGFUSE_BASE_URL, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY, or none',
      }),
    ]);
  }, 120_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinApp, loadConfig } from '../../src/config/index.js';
import {
  holdSqliteEngineLock,
  openSqliteStore,
  SqliteEngineInUseError,
} from '../../src/store/index.js';
import { openEngineDeps } from '../../src/worker/index.js';
import { freePort } from '../support/free-port.js';
import { embeddedDefaults, finished, runCli, waitForLine } from '../support/processes.js';

// SQLite serves one engine process per file: a second `evalflow worker` on it is refused with a
// typed error naming the file and the holder. Two real processes: the CLI's, and this one.

const dir = mkdtempSync(join(tmpdir(), 'evalflow-engine-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `evalflow worker` on `file`, waiting for a Temporal that never answers: it holds the engine. */
async function worker(file: string) {
  const env = {
    ...embeddedDefaults(),
    EVALFLOW_SQLITE_PATH: file,
    EVALFLOW_SCORES_FILE: join(dir, 'scores.jsonl'),
    EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'score-configs.jsonl'),
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
  };
  return runCli(['worker'], { cwd: dir, env });
}

/** What taking the engine lock from this process says: the holder's pid, or null when free. */
function holderPid(file: string): number | null {
  try {
    holdSqliteEngineLock(file).release();
    return null;
  } catch (error) {
    if (!(error instanceof SqliteEngineInUseError)) throw error;
    return error.holder?.pid ?? -1;
  }
}

describe('a SQLite store and its one engine', () => {
  // Two CLI processes start (each loading tsx and the app), which takes long on a loaded machine.
  it('refuses a second evalflow worker on the file, naming it and the holder, until the holder dies', {
    timeout: 240_000,
  }, async () => {
    const file = join(dir, 'one.db');
    const first = await worker(file);
    try {
      // Its start says when the store is open (the lock taken): waited on, not polled for a while
      // that a loaded machine can outlast.
      await waitForLine(first, /engine start: store/, 200_000);
      expect(holderPid(file)).toBe(first.pid);
      const second = await finished(await worker(file));
      expect(second.code).toBe(1);
      const line = second.err.trim().split('\n').at(-1) ?? '';
      expect(line).toContain(
        `the SQLite store ${resolve(file)} is in use by another evalflow engine`,
      );
      expect(line).toContain(`pid ${first.pid}`);
      expect(line).toContain('DATABASE_URL');

      // A host writing commands beside the engine is no engine: it opens the store as before.
      const host = openSqliteStore(file, { feedbackTypes: builtinApp(null).feedbackTypes });
      await host.executeUnchecked({
        workspace_id: 'w',
        actor: { kind: 'system' },
        command: { type: 'create_thread', thread_id: 't' },
      });
      await host.close();

      first.kill('SIGKILL');
      await finished(first);
      // The lock was the operating system's: it went with the process, no stale file left.
      expect(holderPid(file)).toBeNull();
    } finally {
      first.kill('SIGKILL');
    }
  });

  it('refuses a second engine in the same process too, and lets the next one in once closed', async () => {
    const config = loadConfig({
      EVALFLOW_SQLITE_PATH: join(dir, 'same.db'),
      EVALFLOW_SCORES_FILE: join(dir, 'same-scores.jsonl'),
      EVALFLOW_SCORE_CONFIGS_FILE: join(dir, 'same-score-configs.jsonl'),
    });
    const app = builtinApp(null);
    const engine = await openEngineDeps(config, app);
    const refused = await openEngineDeps(config, app).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SqliteEngineInUseError);
    expect(refused).toMatchObject({
      file: resolve(join(dir, 'same.db')),
      holder: { pid: process.pid },
      retryable: false,
    });
    await engine.close();
    const next = await openEngineDeps(config, app);
    await next.close();
  });
});

import Database from 'better-sqlite3';
import type { Backend, Row, Sql } from '../backend.js';
import { migrateSqlite } from './migrate.js';

/**
 * SQLite through better-sqlite3: synchronous underneath, behind the same async port. Work on the
 * one connection is queued, so a transaction spanning awaits never interleaves with another
 * caller's statements (and readers never see a transaction half done).
 */
export function sqliteBackend(path: string): Backend {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Opening is synchronous anyway: a migration may wait here for another process's.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const storeId = migrateSqlite(db);
  // From now on SQLite never waits for a lock itself: that would block this thread, and with it
  // the very holder when that is another store in this process. `whenNotBusy` waits instead.
  db.pragma('busy_timeout = 0');

  const statements = new Map<string, Database.Statement>();
  const prepare = (text: string) => {
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const sql: Sql = {
    all: async (text, params = []) => prepare(text).all(...params) as Row[],
    run: async (text, params = []) => {
      prepare(text).run(...params);
    },
  };

  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => {});
    return result;
  };

  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');

  return {
    storeId,
    read: (work) => serially(() => whenNotBusy(() => work(sql))),
    transaction: (work) =>
      serially(async () => {
        // IMMEDIATE takes the write lock up front, so writers serialize at BEGIN instead of
        // failing at their first write.
        await whenNotBusy(async () => begin.run());
        try {
          const result = await work(sql);
          commit.run();
          return result;
        } catch (error) {
          rollback.run();
          throw error;
        }
      }),
    close: () =>
      serially(async () => {
        db.close();
      }),
  };
}

const BUSY_TIMEOUT_MS = 30_000;

const isBusy = (error: unknown) =>
  error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY');

/**
 * Runs `attempt` until it does not fail for a lock another connection (a second store, another
 * process) holds, pausing asynchronously in between; gives up after BUSY_TIMEOUT_MS.
 */
async function whenNotBusy<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

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
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma('foreign_keys = ON');
  migrateSqlite(db);

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

  // Another connection (a second store, another process) may hold the write lock. Waiting for it
  // inside SQLite would block this thread, and with it the very holder when that is a store in
  // this process; so BEGIN does not wait there, and is retried after an asynchronous pause.
  const begin = async () => {
    const deadline = Date.now() + BEGIN_TIMEOUT_MS;
    db.pragma('busy_timeout = 0');
    try {
      for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
        try {
          db.exec('BEGIN IMMEDIATE');
          return;
        } catch (error) {
          if (!isBusy(error) || Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      }
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  };

  return {
    lockClause: '',
    read: (work) => serially(() => work(sql)),
    transaction: (work) =>
      serially(async () => {
        // IMMEDIATE takes the write lock up front, so writers serialize at BEGIN instead of
        // failing at their first write.
        await begin();
        try {
          const result = await work(sql);
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      }),
    close: () =>
      serially(async () => {
        db.close();
      }),
  };
}

const BUSY_TIMEOUT_MS = 5000;
const BEGIN_TIMEOUT_MS = 30_000;

const isBusy = (error: unknown) =>
  error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY');

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
  db.pragma('busy_timeout = 5000');
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

  return {
    lockClause: '',
    read: (work) => serially(() => work(sql)),
    transaction: (work) =>
      serially(async () => {
        // IMMEDIATE takes the write lock up front, so two processes sharing the file serialize
        // instead of failing at their first write.
        db.exec('BEGIN IMMEDIATE');
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

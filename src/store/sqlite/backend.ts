import Database from 'better-sqlite3';
import type { Backend, Row, Sql } from '../backend.js';
import { startCheckpointer } from './checkpointer.js';
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
  // Checkpoints run in a thread of their own (see checkpointer.ts), not inside a commit here.
  const checkpointer =
    path === ':memory:'
      ? null
      : startCheckpointer(path, {
          checkpointHere: () => db.pragma('wal_checkpoint(PASSIVE)'),
          onFailure: (error) => {
            db.pragma('wal_autocheckpoint = 1000');
            console.warn(`evalflow: SQLite checkpoints run on the writer again: ${error.message}`);
          },
        });
  if (checkpointer) db.pragma('wal_autocheckpoint = 0');

  const sql = sqlOver(db);
  const serially = queued();
  // Reads get a connection of their own (WAL lets it read beside the writer), so they do not
  // wait in line behind write transactions; each read is one read transaction, a consistent
  // snapshot. An in-memory database is one connection's alone: there, reads share the writer's.
  const reader = path === ':memory:' ? undefined : openReader(path);

  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');

  return {
    storeId,
    dialect: 'sqlite',
    read: reader
      ? (work) => reader.serially(() => whenNotBusy(() => reader.snapshot(work)))
      : (work) => serially(() => whenNotBusy(() => work(sql))),
    transaction: (work) =>
      serially(async () => {
        // IMMEDIATE takes the write lock up front, so writers serialize at BEGIN instead of
        // failing at their first write.
        await whenNotBusy(async () => begin.run());
        try {
          const result = await work(sql);
          commit.run();
          checkpointer?.committed();
          return result;
        } catch (error) {
          rollback.run();
          throw error;
        }
      }),
    // The writer's own commits leave it as it is; anyone else's change it.
    othersWroteMark: () => Number(dataVersion.get()),
    close: async () => {
      await checkpointer?.close();
      await reader?.serially(async () => reader.close());
      await serially(async () => {
        db.close();
      });
    },
  };
}

function sqlOver(db: Database.Database): Sql {
  const statements = new Map<string, Database.Statement>();
  const prepare = (text: string) => {
    let statement = statements.get(text);
    if (statement === undefined) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  return {
    all: async (text, params = []) => prepare(text).all(...params) as Row[],
    run: async (text, params = []) => {
      prepare(text).run(...params);
    },
  };
}

/** Work on one connection, one piece at a time: a piece spanning awaits never interleaves. */
function queued() {
  let queue: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => {});
    return result;
  };
}

/** A second connection for reads, opened after the migration made the schema. */
function openReader(path: string) {
  const db = new Database(path, { readonly: true });
  db.pragma('busy_timeout = 0');
  const sql = sqlOver(db);
  const begin = db.prepare('BEGIN');
  const end = db.prepare('COMMIT');
  return {
    serially: queued(),
    async snapshot<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
      begin.run();
      try {
        return await work(sql);
      } finally {
        end.run();
      }
    },
    close: () => db.close(),
  };
}

const BUSY_TIMEOUT_MS = 30_000;
/**
 * The longest pause between two attempts: a lock is mostly held for the few milliseconds of a
 * checkpoint, and a longer pause would leave the writer idle well after it ended.
 */
const MAX_BUSY_PAUSE_MS = 4;

const isBusy = (error: unknown) =>
  error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY');

/**
 * Runs `attempt` until it does not fail for a lock another connection (a second store, another
 * process) holds, pausing asynchronously in between; gives up after BUSY_TIMEOUT_MS.
 */
async function whenNotBusy<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_BUSY_PAUSE_MS)) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

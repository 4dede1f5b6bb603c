import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { type SqliteEngineHolder, SqliteEngineInUseError } from '../errors.js';

// One engine process per SQLite store. The engine (a worker with its relays) holds the write lock
// of a small SQLite file beside the store's, `{file}-engine.lock`, for as long as it runs. The
// lock is the operating system's (SQLite's own file locking), so it goes with the process however
// it ends, SIGKILL included: no stale pid files to clean up. The holder first writes itself down
// in that file (WAL mode lets a refused process read it while the lock is held), so the refusal
// names it. Like SQLite itself, this needs a local file system: network file systems may not
// honour the lock.

export interface SqliteEngineLock {
  /** The lock file beside the store. */
  readonly path: string;
  release(): void;
}

/** The lock file of a SQLite store's engine. */
export const engineLockPath = (file: string) => `${file}-engine.lock`;

/**
 * Makes this process the one engine of the SQLite store at `file`.
 * @throws SqliteEngineInUseError when another process (or another engine in this one) holds it.
 */
export function holdSqliteEngineLock(file: string): SqliteEngineLock {
  const path = engineLockPath(file);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 0');
    const refused = () => new SqliteEngineInUseError(resolve(file), holderOf(db));
    // WAL lets a refused process read the holder while the lock is held.
    if (
      !whenFree(() => db.pragma('journal_mode = WAL')) ||
      !whenFree(() => db.exec('BEGIN IMMEDIATE'))
    )
      throw refused();
    db.exec(
      'CREATE TABLE IF NOT EXISTS holder (only INTEGER PRIMARY KEY CHECK (only = 1), ' +
        'pid INTEGER NOT NULL, host TEXT NOT NULL, command TEXT NOT NULL, since TEXT NOT NULL)',
    );
    db.prepare('INSERT OR REPLACE INTO holder VALUES (1, ?, ?, ?, ?)').run(
      process.pid,
      hostname(),
      process.argv.slice(1).join(' ').slice(0, 500),
      new Date().toISOString(),
    );
    db.exec('COMMIT');
    // Between the commit and here another process may have come in: then it is the holder.
    if (!whenFree(() => db.exec('BEGIN IMMEDIATE'))) throw refused();
  } catch (error) {
    db.close();
    throw error;
  }
  let released = false;
  return {
    path,
    release() {
      if (released) return;
      released = true;
      db.exec('ROLLBACK');
      db.close();
    },
  };
}

/** Runs `work` unless another connection holds the lock it needs: false then. */
function whenFree(work: () => unknown): boolean {
  try {
    work();
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('SQLITE_BUSY'))
      return false;
    throw error;
  }
}

function holderOf(db: Database.Database): SqliteEngineHolder | null {
  try {
    const row = db.prepare('SELECT pid, host, command, since FROM holder').get() as
      | SqliteEngineHolder
      | undefined;
    return row ?? null;
  } catch {
    // No holder table yet: the holder took the lock a moment ago and has not written.
    return null;
  }
}

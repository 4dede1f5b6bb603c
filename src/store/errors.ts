// The store's own errors. Each says with `retryable` whether trying again may succeed; the
// activities treat `retryable: false` as terminal and retry anything else.

/** Thrown when the store fails for a reason of its database rather than of the command. */
export abstract class StoreError extends Error {
  abstract readonly retryable: boolean;
}

/**
 * A store error that names the database server it was talking to: what the failures to reach
 * or to open it have in common.
 */
export abstract class DatabaseServerError extends StoreError {
  constructor(
    message: string,
    /** The server as `host:port`, never with credentials. */
    readonly database: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Thrown when an operation could not reach the database or lost its connection mid-way (the
 * server restarted or crashed, the network dropped). Retryable: the next operation gets a fresh
 * connection. A write in flight may or may not have committed, so retry it with its
 * `command_id`, which makes the second attempt return the first one's outcome.
 */
export class StoreUnavailableError extends DatabaseServerError {
  override readonly name = 'StoreUnavailableError';
  readonly retryable = true;
}

/**
 * Thrown by `openStore` when the database is not usable: it did not answer before the open's
 * deadline, or it refused for a reason waiting cannot fix (a wrong password, a missing
 * database). Not retryable: the waiting already happened.
 */
export class StoreOpenError extends DatabaseServerError {
  override readonly name = 'StoreOpenError';
  readonly retryable = false;
  constructor(
    message: string,
    database: string,
    /** How long opening waited for the server, in milliseconds. */
    readonly waitedMs: number,
    /** How many times it tried to connect. */
    readonly attempts: number,
    options?: { cause?: unknown },
  ) {
    super(message, database, options);
  }
}

/** Who holds a SQLite store as its engine, as the holder wrote it down. */
export interface SqliteEngineHolder {
  pid: number;
  host: string;
  /** Its command line. */
  command: string;
  /** When it took the store, as an ISO timestamp. */
  since: string;
}

/**
 * Thrown by `holdSqliteEngineLock` (so by `evalflow worker` and `evalflow start`) when another
 * engine process runs on the same SQLite file: SQLite serves one engine process (a host writing
 * commands beside it is fine). Not retryable: stop the other process, or use Postgres.
 */
export class SqliteEngineInUseError extends StoreError {
  override readonly name = 'SqliteEngineInUseError';
  readonly retryable = false;
  constructor(
    /** The SQLite store's file. */
    readonly file: string,
    /** The engine holding it; null when it has not written itself down yet. */
    readonly holder: SqliteEngineHolder | null,
  ) {
    const who =
      holder === null
        ? 'another process'
        : `pid ${holder.pid} on ${holder.host} (${holder.command}) since ${holder.since}`;
    super(
      `the SQLite store ${file} is in use by another evalflow engine: ${who}. SQLite serves one ` +
        'engine process; stop that one, or set DATABASE_URL to run several on Postgres',
    );
  }
}

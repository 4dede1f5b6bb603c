import type pg from 'pg';
import { StoreUnavailableError } from '../errors.js';
import type { Lease, Leases } from '../port.js';
import { reasonOf } from './connection-failures.js';
import { openSession, type Session } from './session.js';

// Leases as session-level advisory locks, all of a store's in one process on one session.
//
// Why an advisory lock and not a lease row with a heartbeat: the server releases it by itself the
// moment the holding session ends, so a SIGKILLed holder frees its leases at once, with no expiry
// to wait out, no clocks to compare and no heartbeat writes; a takeover costs only the
// contenders' next try. The price: it needs a real session, so a transaction-pooling proxy
// (PgBouncer in transaction mode) between evalflow and Postgres breaks it; connect directly or in
// session mode. A holder cut off by the network loses its session within about 7 s (session.ts)
// and stops its work when its own check fails; for the moment both run, the relay's signals are
// idempotent by seq.
//
// The key of a lease is `hashtextextended('{store id}:{name}', 0)`: a 64-bit hash, so stores in
// other schemas of the database never meet. Two names that collide only make one process hold
// both.

/** How often the session is checked while it holds leases. */
const HEARTBEAT_MS = 2000;

const TRY_LOCKS =
  'SELECT name FROM unnest($1::text[]) AS name ' +
  "WHERE pg_try_advisory_lock(hashtextextended($2 || ':' || name, 0))";
const UNLOCK = "SELECT pg_advisory_unlock(hashtextextended($2 || ':' || $1, 0))";
// pg_locks shows a 64-bit advisory key as its high half in classid and its low half in objid,
// with objsubid 1; the locks of every database are there, so only this one's count.
const COUNT_HELD =
  'SELECT count(DISTINCT k.key)::int AS held ' +
  "FROM (SELECT hashtextextended($2 || ':' || name, 0) AS key FROM unnest($1::text[]) AS name) k " +
  "JOIN pg_locks l ON l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted " +
  'AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) ' +
  'AND l.classid::int8 = ((k.key >> 32) & 4294967295) AND l.objid::int8 = (k.key & 4294967295)';

export interface AdvisoryLeases extends Leases {
  close(): Promise<void>;
}

export function advisoryLeases(
  config: pg.ClientConfig,
  storeId: string,
  /** The server as `host:port`, for messages. */
  server: string,
): AdvisoryLeases {
  let session: Promise<Session> | null = null;
  const held = new Map<string, () => void>();
  let closed = false;

  const connected = (): Promise<Session> => {
    if (session !== null) return session;
    const opening = openSession(config, 'leases', HEARTBEAT_MS);
    session = opening;
    opening.then(
      (opened) =>
        opened.lost.then(() => {
          if (session === opening) session = null;
          // The server released every lock of the session with it.
          const lost = [...held.values()];
          held.clear();
          for (const lose of lost) lose();
        }),
      () => {
        if (session === opening) session = null;
      },
    );
    return opening;
  };

  const unavailable = (error: unknown) =>
    new StoreUnavailableError(
      `Postgres at ${server} is unavailable for leases: ${reasonOf(error)}`,
      server,
      { cause: error },
    );

  return {
    async take(names) {
      const wanted = [...new Set(names)].filter((name) => !held.has(name));
      if (closed || wanted.length === 0) return [];
      let current: Session;
      let rows: { name: string }[];
      try {
        current = await connected();
        rows = (await current.client.query<{ name: string }>(TRY_LOCKS, [wanted, storeId])).rows;
      } catch (error) {
        throw unavailable(error);
      }
      return rows.map(({ name }): Lease => {
        let lose = () => {};
        const lost = new Promise<void>((resolve) => {
          lose = resolve;
        });
        held.set(name, lose);
        return {
          name,
          lost,
          async release() {
            if (held.get(name) !== lose) return;
            held.delete(name);
            // A session lost meanwhile released the lock already.
            await current.client.query(UNLOCK, [name, storeId]).catch(() => {});
          },
        };
      });
    },
    async countHeld(names) {
      if (closed || names.length === 0) return 0;
      try {
        const current = await connected();
        const { rows } = await current.client.query<{ held: number }>(COUNT_HELD, [
          [...new Set(names)],
          storeId,
        ]);
        return rows[0]?.held ?? 0;
      } catch (error) {
        throw unavailable(error);
      }
    },
    async close() {
      closed = true;
      held.clear();
      const open = session;
      session = null;
      await (await open?.catch(() => null))?.end();
    },
  };
}

import pg from 'pg';

// A Postgres connection of its own, outside the pool, for state that lives as long as the session
// does: advisory locks (lease.ts) and LISTEN (notifications.ts). Its loss must be noticed on both
// ends. The server ends a session whose client process died at once (the kernel closes the
// socket), and within about 7 s one whose host or network vanished (TCP keepalives set below);
// the client checks the session with a query every few seconds, so a holder learns it lost its
// locks about as soon as another process can take them.

export interface Session {
  readonly client: pg.Client;
  /** Settles once the session has ended, for whatever reason (after `end`, too). */
  readonly lost: Promise<void>;
  end(): Promise<void>;
}

// Server-side keepalives: probe after 4 s of silence, every 1 s, give up after 3 missed probes;
// and drop the connection when sent data stays unacknowledged for 7 s. All settable per session.
const KEEPALIVE_SETTINGS =
  'SET tcp_keepalives_idle = 4; SET tcp_keepalives_interval = 1; ' +
  'SET tcp_keepalives_count = 3; SET tcp_user_timeout = 7000';

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * Connects a session named `evalflow {purpose} (pid N)` in `pg_stat_activity`, checked every
 * `heartbeatMs` by a query that must answer within as long again.
 */
export async function openSession(
  config: pg.ClientConfig,
  purpose: string,
  heartbeatMs: number,
): Promise<Session> {
  const client = new pg.Client({
    ...config,
    application_name: `evalflow ${purpose} (pid ${process.pid})`.slice(0, 63),
    keepAlive: true,
    keepAliveInitialDelayMillis: 4000,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  let markLost = () => {};
  const lost = new Promise<void>((resolve) => {
    markLost = resolve;
  });
  let ended = false;
  let timer: NodeJS.Timeout | undefined;
  const end = async () => {
    if (ended) return;
    ended = true;
    clearInterval(timer);
    markLost();
    // A dead network may never answer the goodbye: the socket goes without waiting for it.
    await Promise.race([client.end().catch(() => {}), sleep(1000)]);
  };
  // A dropped connection arrives as 'error' (which would otherwise crash the process) or 'end'.
  client.on('error', () => void end());
  client.on('end', () => void end());
  try {
    await client.connect();
    await client.query(KEEPALIVE_SETTINGS);
  } catch (error) {
    await end();
    throw error;
  }
  let checking = false;
  timer = setInterval(() => {
    if (checking) return;
    checking = true;
    Promise.race([
      client.query('SELECT 1'),
      sleep(heartbeatMs).then(() => {
        throw new Error('no answer');
      }),
    ])
      .catch(() => end())
      .finally(() => {
        checking = false;
      });
  }, heartbeatMs);
  timer.unref();
  return { client, lost, end };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

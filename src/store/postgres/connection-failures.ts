// Which failures mean "the server is not there right now" (worth waiting for, or retrying), and
// how to name the server in a message without its credentials.

// Node's socket errors: refused, reset, unreachable, a name not (yet) resolvable.
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of a server going away or not ready yet: class 08 (connection exception), shutdown
// and crash (57P01, 57P02), starting up or recovering (57P03), too many connections (53300).
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;

// pg's own messages for a socket that ended, timed out while connecting (the client's
// `timeout expired`, the pool's `connection timeout`), or broke earlier.
const PG_MESSAGES = /Connection terminated|connection timeout|timeout expired|not queryable/i;

/** Whether `error` says the connection failed or dropped, rather than that a statement did. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isConnectionFailure)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.test(code))) return true;
  return PG_MESSAGES.test(error.message);
}

/** A short reason: `connect ECONNREFUSED` for a socket error, else the error's message. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string' && typeof syscall === 'string') return `${syscall} ${code}`;
  if (error instanceof AggregateError && error.errors[0] !== undefined)
    return reasonOf(error.errors[0]);
  return error.message;
}

/** The server a `postgres://` URL names, as `host:port`: never its user or password. */
export function serverOf(databaseUrl: string, env: NodeJS.ProcessEnv = process.env): string {
  let url: URL | undefined;
  try {
    url = new URL(databaseUrl);
  } catch {
    // Not a URL (a libpq key/value string, say): name no server rather than echo it.
  }
  const host =
    url?.hostname.replace(/^\[|\]$/g, '') ||
    url?.searchParams.get('host') ||
    env.PGHOST ||
    'localhost';
  const port = url?.port || url?.searchParams.get('port') || env.PGPORT || '5432';
  return `${host}:${port}`;
}

import { Writable } from 'node:stream';

// The log for a person at a terminal: one line per answered request
// (`12:03:04 POST /v1/threads 201 3 ms`), one per thing the engine did that an operator follows
// (`12:03:05 evaluation finished workspace=acme … outcome=recorded`: the lines that name an
// `event`), and each warning or error as a line naming it. It reads the JSON lines pino writes
// (Fastify's logger, the engine's `operationsLog`), so the JSON log and this one say the same.

interface LogLine {
  level?: number;
  event?: string;
  time?: number;
  msg?: string;
  reqId?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
  err?: { message?: string };
}

const WARN = 40;
const LEVELS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/** A stream for pino (Fastify's logger, the operations log) that writes readable lines to `out`. */
export function textLogStream(out: NodeJS.WritableStream): Writable {
  // The request line carries the method and URL; the answer's line carries the status.
  const requests = new Map<string, string>();
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (text.trim() === '') continue;
        const line = parse(text);
        const formatted = line && format(line, requests);
        if (formatted) out.write(`${formatted}\n`);
      }
      done();
    },
  });
}

function parse(text: string): LogLine | null {
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return null;
  }
}

/** What pino writes on every line, and the request lines' own: not an event's fields. */
const NOT_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'event', 'err']);

/** An event's fields as `key=value`, strings as they are unless they hold a space. */
function fieldsOf(line: LogLine): string {
  return Object.entries(line)
    .filter(([key, value]) => !NOT_FIELDS.has(key) && value !== undefined)
    .map(([key, value]) => {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      return ` ${key}=${typeof value === 'string' && /\s|"/.test(value) ? JSON.stringify(value) : text}`;
    })
    .join('');
}

function format(line: LogLine, requests: Map<string, string>): string | null {
  const at = clock(line.time);
  if (line.event !== undefined && (line.level ?? 0) < WARN) {
    return `${at} ${line.msg ?? line.event}${fieldsOf(line)}`;
  }
  if (line.req && line.reqId !== undefined && line.res === undefined) {
    requests.set(line.reqId, `${line.req.method ?? '?'} ${line.req.url ?? '?'}`);
    return null;
  }
  if (line.res && line.reqId !== undefined) {
    const request = requests.get(line.reqId) ?? 'request';
    requests.delete(line.reqId);
    const ms = line.responseTime === undefined ? '' : ` ${Math.round(line.responseTime)} ms`;
    return `${at} ${request} ${line.res.statusCode ?? '?'}${ms}`;
  }
  if ((line.level ?? 0) >= WARN) {
    const level = LEVELS[line.level ?? WARN] ?? 'warning';
    const cause = line.err?.message ? `: ${line.err.message}` : '';
    const fields = line.event === undefined ? '' : fieldsOf(line);
    return `${at} ${level}: ${line.msg ?? ''}${cause}${fields}`;
  }
  return null;
}

const clock = (time: number | undefined) =>
  new Date(time ?? Date.now()).toISOString().slice(11, 19);

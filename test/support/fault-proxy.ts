import {
  createServer,
  request as forward,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

// A proxy in front of the API that misbehaves on cue: it answers 503 or 429 (with Retry-After)
// instead of the API, or after the API has done the work; it drops connections, before or after
// the API answered; it cuts an event stream after some events. It records every request it saw,
// so a test can read the headers a client sent on each attempt.

export type Fault =
  /** Answers this status; with `afterUpstream`, only once the API has answered (its answer lost). */
  | { kind: 'status'; status: number; retryAfter?: string; afterUpstream?: boolean }
  /** Closes the connection with no answer; with `afterUpstream`, once the API has answered. */
  | { kind: 'drop'; afterUpstream?: boolean }
  /** Passes an event stream through, then closes the connection after this many events. */
  | { kind: 'cut-stream'; afterEvents: number };

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  /** When it arrived (epoch milliseconds). */
  at: number;
  /** The fault the proxy applied to it, if any. */
  fault: Fault['kind'] | null;
}

export interface FaultProxy {
  url: string;
  requests: SeenRequest[];
  /** Applies `fault` to the next `times` (default 1) requests that `match` picks (default all). */
  inject(
    fault: Fault,
    options?: { times?: number; match?: (request: SeenRequest) => boolean },
  ): void;
  close(): Promise<void>;
}

interface Pending {
  fault: Fault;
  left: number;
  match: (request: SeenRequest) => boolean;
}

export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const pending: Pending[] = [];
  const requests: SeenRequest[] = [];

  const toUpstream = (req: IncomingMessage, body: Buffer) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const out = forward(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        resolve,
      );
      out.once('error', reject);
      out.end(body);
    });
  const readAll = async (stream: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const answer = (res: ServerResponse, status: number, retryAfter?: string) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(retryAfter !== undefined ? { 'retry-after': retryAfter } : {}),
    });
    res.end(
      JSON.stringify({
        type: status === 429 ? 'rate_limited' : 'unavailable',
        message: `the fault proxy answered ${status}`,
      }),
    );
  };

  const server = createServer(async (req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      at: Date.now(),
      fault: null,
    };
    requests.push(seen);
    const due = pending.find((p) => p.left > 0 && p.match(seen));
    if (due) due.left -= 1;
    const fault = due?.fault;
    seen.fault = fault?.kind ?? null;
    try {
      const body = await readAll(req);
      if (fault?.kind === 'status' && !fault.afterUpstream) {
        return answer(res, fault.status, fault.retryAfter);
      }
      if (fault?.kind === 'drop' && !fault.afterUpstream) return req.socket.destroy();
      const reply = await toUpstream(req, body);
      if (fault?.kind === 'status' || fault?.kind === 'drop') {
        await readAll(reply);
        if (fault.kind === 'drop') return req.socket.destroy();
        return answer(res, fault.status, fault.retryAfter);
      }
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      res.once('close', () => reply.destroy());
      if (fault?.kind !== 'cut-stream') {
        reply.pipe(res);
        return;
      }
      cutAfter(reply, res, fault.afterEvents);
    } catch {
      req.socket.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    inject(fault, { times = 1, match = () => true } = {}) {
      pending.push({ fault, left: times, match });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Passes whole events through until `count` of them went by, then drops the connection. */
function cutAfter(reply: IncomingMessage, res: ServerResponse, count: number) {
  let text = '';
  let events = 0;
  reply.setEncoding('utf8');
  reply.on('data', (chunk: string) => {
    text += chunk;
    let end = text.indexOf('\n\n');
    while (end >= 0 && events < count) {
      const frame = text.slice(0, end + 2);
      text = text.slice(end + 2);
      if (/^id:/m.test(frame)) events += 1;
      const last = events === count;
      res.write(frame, () => {
        if (last) res.socket?.destroy();
      });
      end = text.indexOf('\n\n');
    }
  });
}

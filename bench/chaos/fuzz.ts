import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import {
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../test/support/python-venv.js';
import { fetchDocument, type Route, routeFor, routesOf } from './openapi-routes.js';
import { readySchemathesis } from './schemathesis.js';

// Scenario 7: schemathesis generates requests for every route in the API's OpenAPI document
// (valid and invalid bodies, wrong types, odd strings, unknown fields) and sends them through a
// recording proxy in front of the API. The proxy passes one request at a time, so it can tell
// what each refused request stored: it reads what is stored before and after each one.

export interface FuzzFigures {
  requests: number;
  /** Answers of 500 and above. */
  fiveXx: number;
  /** Answers below 500 that the route does not document. */
  undocumented: number;
  /** Refused requests (4xx) after which what is stored was not what it was before. */
  storedByRefused: number;
  /** Requests per route, `METHOD /path`. */
  perRoute: Map<string, number>;
  /** The first few faults, to show. */
  examples: string[];
  /** schemathesis' own exit code and summary, for its other checks. */
  schemathesis: { code: number | null; summary: string };
}

export interface FuzzOptions {
  url: string;
  /** Everything stored, as a comparable line (Deployment.snapshot). */
  snapshot: () => string | Promise<string>;
  /** The keys schemathesis sends, one per run in turn (each principal reaches other routes). */
  keys: string[];
  /** Stop once this many requests went through (the last run completes). */
  requests: number;
  /** Test cases per operation per schemathesis run. */
  maxExamples: number;
  seed?: number;
}

function body(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

/** Sends one request upstream; an event stream is cut after its first chunk. */
function pass(
  upstream: URL,
  incoming: IncomingMessage,
  payload: Buffer,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const outgoing = forward(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: upstream.host, connection: 'close' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined && !['connection', 'transfer-encoding'].includes(name)) {
            headers[name] = Array.isArray(value) ? value.join(', ') : value;
          }
        }
        const done = () =>
          resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
        const streaming = String(response.headers['content-type']).startsWith('text/event-stream');
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (streaming) {
            outgoing.destroy();
            done();
          }
        });
        response.once('end', done);
        response.once('error', () => done());
      },
    );
    outgoing.once('error', reject);
    outgoing.end(payload);
  });
}

interface RecordingProxy {
  url: string;
  figures: Omit<FuzzFigures, 'schemathesis'>;
  close(): Promise<void>;
}

async function startRecordingProxy(
  upstreamUrl: string,
  snapshot: () => string | Promise<string>,
  routes: Route[],
): Promise<RecordingProxy> {
  const upstream = new URL(upstreamUrl);
  const figures = {
    requests: 0,
    fiveXx: 0,
    undocumented: 0,
    storedByRefused: 0,
    perRoute: new Map<string, number>(),
    examples: [] as string[],
  };
  const note = (line: string) => {
    if (figures.examples.length < 20) figures.examples.push(line);
  };
  // One request at a time: the log before and after a request is that request's doing.
  let queue = Promise.resolve();
  const handle = async (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const payload = await body(incoming);
    const method = incoming.method ?? 'GET';
    const url = incoming.url ?? '/';
    const route = routeFor(routes, method, url);
    const label = route ? `${route.method} ${route.path}` : `${method} (no route)`;
    const before = await snapshot();
    let answer: Awaited<ReturnType<typeof pass>>;
    try {
      answer = await pass(upstream, incoming, payload);
    } catch (error) {
      // The API closed the connection without an answer: as bad as a 5xx.
      figures.requests += 1;
      figures.fiveXx += 1;
      note(`${label}: no answer (${(error as Error).message})`);
      outgoing.writeHead(502).end();
      return;
    }
    figures.requests += 1;
    figures.perRoute.set(label, (figures.perRoute.get(label) ?? 0) + 1);
    const shortBody = `${payload.toString('utf8').slice(0, 300)}`;
    if (answer.status >= 500) {
      figures.fiveXx += 1;
      note(
        `${method} ${url} ${shortBody} -> ${answer.status} ${answer.body.toString().slice(0, 300)}`,
      );
    } else if (route && !route.statuses.has(answer.status)) {
      figures.undocumented += 1;
      note(`${method} ${url} -> ${answer.status}, undocumented`);
    }
    if (answer.status >= 400) {
      const after = await snapshot();
      if (after !== before) {
        figures.storedByRefused += 1;
        note(
          `${method} ${url} ${shortBody} -> ${answer.status} but what is stored went ${before} -> ${after}`,
        );
      }
    }
    outgoing.writeHead(answer.status, answer.headers).end(answer.body);
  };
  const server = createServer((incoming, outgoing) => {
    queue = queue.then(() =>
      handle(incoming, outgoing).catch((error) => {
        note(`proxy: ${(error as Error).message}`);
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.end();
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    figures,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs schemathesis against the API until `requests` went through; the figures the proxy saw. */
export async function fuzzApi(options: FuzzOptions): Promise<FuzzFigures> {
  const schemathesis = await readySchemathesis();
  const document = await fetchDocument(options.url);
  const routes = routesOf(document);
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-fuzz-'));
  const schemaFile = join(dir, 'openapi.json');
  writeFileSync(schemaFile, JSON.stringify(document));
  const proxy = await startRecordingProxy(options.url, options.snapshot, routes);
  let last: { code: number | null; summary: string } = { code: null, summary: '' };
  try {
    for (let round = 0; proxy.figures.requests < options.requests && round < 50; round++) {
      const ran = await run(
        schemathesis,
        [
          '--no-color',
          'run',
          schemaFile,
          '--url',
          proxy.url,
          '--header',
          `Authorization: Bearer ${options.keys[round % options.keys.length]}`,
          '--checks',
          'not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance',
          '--max-examples',
          String(options.maxExamples),
          '--seed',
          String((options.seed ?? 1) + round),
          '--workers',
          '1',
          '--phases',
          'examples,coverage,fuzzing',
          '--suppress-health-check',
          'all',
          '--request-timeout',
          '30',
          '--generation-database',
          'none',
        ],
        // Its crash cache (.schemathesis/) goes into `dir` too, not into the repository.
        { env: { ...process.env, NO_COLOR: '1' }, cwd: dir },
      );
      last = { code: ran.code, summary: ran.out.split('\n').slice(-40).join('\n') + ran.err };
      if (process.env.CHAOS_FUZZ_OUTPUT)
        writeFileSync(process.env.CHAOS_FUZZ_OUTPUT, ran.out + ran.err);
    }
  } finally {
    await proxy.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { ...proxy.figures, schemathesis: last };
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import { MetricsPortInUseError } from './errors.js';

// `GET /metrics` on a port of its own, never the API's: what Prometheus scrapes. The process's
// own figures (CPU, memory, event loop lag, GC: prom-client's defaults) ride along.

export interface MetricsAddress {
  /** Loopback by default: the figures name evaluators and routes, so expose them on purpose. */
  host: string;
  /** 0 for any free port (tests). */
  port: number;
}

export interface MetricsEndpoint {
  /** `http://host:port/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

/** Registries whose process figures are collected already: once each, whoever serves it. */
const withProcessFigures = new WeakSet<Registry>();

/**
 * Serves `registry` at `GET /metrics`, followed by what `more` gives (Temporal's own worker
 * metrics, already in Prometheus's text format); a `more` that fails leaves a comment saying why
 * in place of its part.
 * @throws MetricsPortInUseError when something else listens on the port.
 */
export async function serveMetrics(
  registry: Registry,
  address: MetricsAddress,
  more: readonly (() => Promise<string>)[] = [],
): Promise<MetricsEndpoint> {
  if (!withProcessFigures.has(registry)) {
    withProcessFigures.add(registry);
    collectDefaultMetrics({ register: registry });
  }
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('only /metrics is here\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end();
      return;
    }
    void scrape(registry, more).then(
      (text) => {
        response.writeHead(200, { 'content-type': registry.contentType });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`the metrics could not be read: ${(error as Error).message}\n`);
      },
    );
  });
  await listen(server, address);
  const { port } = server.address() as AddressInfo;
  const host = address.host.includes(':') ? `[${address.host}]` : address.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function scrape(registry: Registry, more: readonly (() => Promise<string>)[]) {
  const parts = await Promise.all([
    registry.metrics(),
    // A part that fails says so where it would have been, as a comment Prometheus skips.
    ...more.map((read) =>
      read().catch(
        (error: unknown) =>
          `# evalflow: a part of these metrics could not be read: ${oneLine(error)}\n`,
      ),
    ),
  ]);
  return parts.map((part) => (part === '' || part.endsWith('\n') ? part : `${part}\n`)).join('');
}

const oneLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

function listen(server: Server, { host, port }: MetricsAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new MetricsPortInUseError(host, port) : error);
    });
    server.listen({ host, port }, () => resolve());
  });
}

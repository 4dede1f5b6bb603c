import { createServer } from 'node:net';
import { Counter } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type MetricsEndpoint,
  MetricsPortInUseError,
  Registry,
  serveMetrics,
} from '../../src/metrics/index.js';

// The endpoint Prometheus scrapes: a real HTTP server on loopback, asked with fetch.

const served: MetricsEndpoint[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((endpoint) => endpoint.close()));
});

async function serve(registry: Registry, more: (() => Promise<string>)[] = []) {
  const endpoint = await serveMetrics(registry, { host: '127.0.0.1', port: 0 }, more);
  served.push(endpoint);
  return endpoint;
}

function registryWithOne(): Registry {
  const registry = new Registry();
  new Counter({ name: 'evalflow_test_things_total', help: 'things', registers: [registry] });
  return registry;
}

describe('the metrics endpoint', () => {
  it("answers GET /metrics with the registry in Prometheus's text format, and the process's figures", async () => {
    const endpoint = await serve(registryWithOne());
    expect(endpoint.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const response = await fetch(endpoint.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain(
      '# TYPE evalflow_test_things_total counter\nevalflow_test_things_total 0',
    );
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('serves only /metrics, and only to GET and HEAD', async () => {
    const endpoint = await serve(registryWithOne());
    const root = new URL('/', endpoint.url).href;
    expect((await fetch(root)).status).toBe(404);
    expect((await fetch(`${endpoint.url}?x=1`)).status).toBe(200);
    const posted = await fetch(endpoint.url, { method: 'POST', body: '' });
    expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const head = await fetch(endpoint.url, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('follows the registry with what else it is given, and says why a part that fails is missing', async () => {
    const endpoint = await serve(registryWithOne(), [
      async () => '# TYPE temporal_thing_total counter\ntemporal_thing_total 3',
      async () => {
        throw new Error('the exporter is gone');
      },
    ]);
    const text = await (await fetch(endpoint.url)).text();
    expect(text).toContain('evalflow_test_things_total 0\n');
    expect(text).toContain('temporal_thing_total 3\n');
    expect(
      text.endsWith(
        '# evalflow: a part of these metrics could not be read: the exporter is gone\n',
      ),
    ).toBe(true);
  });

  it('refuses a port another program listens on, saying which and how to pick another', async () => {
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const { port } = other.address() as { port: number };
    try {
      const error = await serveMetrics(new Registry(), { host: '127.0.0.1', port }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(MetricsPortInUseError);
      expect((error as Error).message).toBe(
        `the metrics port 127.0.0.1:${port} is in use; pick another with --metrics-port or EVALFLOW_METRICS_PORT`,
      );
    } finally {
      other.close();
    }
  });

  it('stops listening when closed', async () => {
    const endpoint = await serveMetrics(new Registry(), { host: '127.0.0.1', port: 0 });
    await endpoint.close();
    await expect(fetch(endpoint.url)).rejects.toThrow();
  });
});

import { createServer } from 'node:net';
import { IllegalStateError } from '@temporalio/common';
import { Runtime } from '@temporalio/worker';

// Temporal's own worker metrics (task slots, polls, schedule-to-start and execution latencies,
// failures), from its runtime's Prometheus exporter. The exporter serves them on a loopback port
// of its own, which nothing outside the process is told of: each scrape of evalflow's endpoint
// reads them through, so a process has one endpoint with both. The runtime is installed once per
// process, before its first connection, with Prometheus's naming: counters end in `_total`,
// durations are in seconds and say so.

/** How long a scrape waits for the exporter before it answers without its part. */
const READ_TIMEOUT_MS = 2000;

/**
 * Installs Temporal's runtime with its Prometheus exporter and returns what reads the exporter's
 * text; null, after telling `log` why, when the process has a runtime already (a host or a test
 * installed one, or a worker started before): the endpoint then serves evalflow's metrics alone.
 */
export async function exportTemporalMetrics(
  log: (line: string) => void,
): Promise<(() => Promise<string>) | null> {
  const address = `127.0.0.1:${await freeLoopbackPort()}`;
  try {
    Runtime.install({
      telemetryOptions: {
        metrics: {
          prometheus: {
            bindAddress: address,
            countersTotalSuffix: true,
            unitSuffix: true,
            useSecondsForDurations: true,
          },
        },
      },
    });
  } catch (error) {
    if (!(error instanceof IllegalStateError)) throw error;
    log(
      "Temporal's worker metrics are not served: this process installed Temporal's runtime first",
    );
    return null;
  }
  return async () => {
    const response = await fetch(`http://${address}/metrics`, {
      signal: AbortSignal.timeout(READ_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`Temporal's exporter answered ${response.status}`);
    return response.text();
  };
}

/** A port nothing listens on right now (the exporter binds it a moment later). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

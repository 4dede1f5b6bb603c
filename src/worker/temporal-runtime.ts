import { createServer } from 'node:net';
import { IllegalStateError } from '@temporalio/common';
import { DefaultLogger, type LogEntry, type Logger, Runtime } from '@temporalio/worker';
import type { OperationsLog } from '../metrics/index.js';

// Temporal's runtime, installed once per process before its first connection: its log goes to
// the operations log, and with a metrics port its worker metrics are read through evalflow's
// endpoint.
//
// Temporal's own worker metrics (task slots, polls, schedule-to-start and execution latencies,
// failures), from its runtime's Prometheus exporter. The exporter serves them on a loopback port
// of its own, which nothing outside the process is told of: each scrape of evalflow's endpoint
// reads them through, so a process has one endpoint with both. The runtime is installed once per
// process, before its first connection, with Prometheus's naming: counters end in `_total`,
// durations are in seconds and say so.

/** How long a scrape waits for the exporter before it answers without its part. */
const READ_TIMEOUT_MS = 2000;

/** What Temporal's lines carry that says nothing to an operator of one engine. */
const CONTEXT = new Set(['sdkComponent', 'namespace', 'taskQueue', 'runId', 'workflowType']);

/**
 * Temporal's logger onto the operations log: a workflow's line that names an `event` (a batch
 * started, say) at info with the workflow's id, the SDK's own warnings and errors as such, and
 * its chatter at info and below (a worker's state changes) left out, as a quiet start wants.
 */
export function temporalLogger(operations: OperationsLog): Logger {
  return new DefaultLogger('INFO', ({ level, message, meta = {} }: LogEntry) => {
    const { workflowId, activityType, error, event, ...rest } = meta;
    const ids = {
      ...(workflowId === undefined ? {} : { workflow: workflowId }),
      ...(activityType === undefined ? {} : { activity: activityType }),
    };
    if (typeof event === 'string') {
      const fields = Object.entries(rest).filter(([key]) => !CONTEXT.has(key));
      operations.info({ event, ...Object.fromEntries(fields), ...ids }, message);
    } else if (level === 'WARN' || level === 'ERROR') {
      const cause = error instanceof Error ? { error: error.message } : {};
      operations[level === 'WARN' ? 'warn' : 'error'](
        { event: 'temporal', ...ids, ...cause },
        message,
      );
    }
  });
}

/**
 * Installs Temporal's runtime with its log going to `operations` and, with `metrics`, its
 * Prometheus exporter; returns what reads the exporter's text. Null when there is no exporter:
 * none was asked for, or the process has a runtime already (a host or a test installed one, or a
 * worker started before), which `log` is told of when metrics were asked for: the endpoint then
 * serves evalflow's metrics alone, and Temporal logs as that runtime says.
 */
export async function installTemporalRuntime(options: {
  operations: OperationsLog;
  metrics: boolean;
  log: (line: string) => void;
}): Promise<(() => Promise<string>) | null> {
  const address = options.metrics ? `127.0.0.1:${await freeLoopbackPort()}` : null;
  const prometheus = {
    bindAddress: address ?? '',
    countersTotalSuffix: true,
    unitSuffix: true,
    useSecondsForDurations: true,
  };
  try {
    Runtime.install({
      logger: temporalLogger(options.operations),
      telemetryOptions: {
        // The SDK's native side logs through the same logger: its warnings and errors.
        logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} },
        ...(address === null ? {} : { metrics: { prometheus } }),
      },
    });
  } catch (error) {
    if (!(error instanceof IllegalStateError)) throw error;
    if (options.metrics) {
      options.log(
        "Temporal's worker metrics are not served: this process installed Temporal's runtime first",
      );
    }
    return null;
  }
  if (address === null) return null;
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

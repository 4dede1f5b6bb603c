import { createHash } from 'node:crypto';
import { type Backend, parseJson } from './backend.js';
import { noteTraceBatches, type TraceBatch } from './trace-signals.js';

// The spans an OTLP exporter sent, by workspace and trace, as the receiver read them (the store
// keeps each span's body as JSON and knows nothing of its shape). A request's spans of one trace
// are one row, keyed `batch:` and a hash of their ids: a request sent again (exporters retry) is
// the same row, kept once. A span that comes again in another batch (a Collector that fans out
// and batches anew) is read once: the first received. Rows of one span each, keyed by its id, are
// what stores before batch rows wrote; they read the same. Their traces' rows in the receiver's
// outbox (trace-signals.ts) are written in the same transaction.

export interface ReceivedSpan {
  trace_id: string;
  span_id: string;
  body: unknown;
}

export interface TraceSpans {
  /**
   * Keeps the spans and notes their traces' batches for signalling, in one transaction: once it
   * resolves they survive a crash.
   */
  put(
    workspace_id: string,
    spans: readonly ReceivedSpan[],
    batches: readonly TraceBatch[],
  ): Promise<void>;
  /** A trace's spans' bodies, each once, in the order they were first received. */
  ofTrace(workspace_id: string, trace_id: string): Promise<unknown[]>;
}

const BATCH = 'batch:';

/** A batch row's body: its spans' ids and bodies. */
type BatchBody = { id: string; body: unknown }[];

/** The spans by trace, in the order they came. */
function byTrace(spans: readonly ReceivedSpan[]): Map<string, BatchBody> {
  const traces = new Map<string, BatchBody>();
  for (const span of spans) {
    const batch = traces.get(span.trace_id) ?? [];
    if (batch.length === 0) traces.set(span.trace_id, batch);
    batch.push({ id: span.span_id, body: span.body });
  }
  return traces;
}

const batchKey = (batch: BatchBody) => {
  const hash = createHash('sha256');
  for (const { id } of batch) hash.update(id).update('\n');
  return `${BATCH}${hash.digest('hex').slice(0, 32)}`;
};

export function createTraceSpans(backend: Backend, now: () => Date): TraceSpans {
  return {
    async put(workspace_id, spans, batches) {
      if (spans.length === 0 && batches.length === 0) return;
      const at = now();
      const received_at = at.toISOString();
      await backend.transaction(async (sql) => {
        await noteTraceBatches(sql, workspace_id, batches, at.getTime());
        for (const [trace_id, batch] of byTrace(spans)) {
          await sql.run(
            `INSERT INTO trace_spans (workspace_id, trace_id, span_id, body, received_at)
               VALUES (?, ?, ?, ?, ?)
               ON CONFLICT (workspace_id, trace_id, span_id) DO NOTHING`,
            [workspace_id, trace_id, batchKey(batch), JSON.stringify(batch), received_at],
          );
        }
      });
    },
    async ofTrace(workspace_id, trace_id) {
      const rows = await backend.read((sql) =>
        sql.all(
          `SELECT span_id, body FROM trace_spans WHERE workspace_id = ? AND trace_id = ?
             ORDER BY received_at, span_id`,
          [workspace_id, trace_id],
        ),
      );
      const seen = new Set<string>();
      const bodies: unknown[] = [];
      const keep = (id: string, body: unknown) => {
        if (seen.has(id)) return;
        seen.add(id);
        bodies.push(body);
      };
      for (const row of rows) {
        const key = String(row.span_id);
        const body = parseJson(row.body);
        if (!key.startsWith(BATCH)) keep(key, body);
        else for (const span of body as BatchBody) keep(span.id, span.body);
      }
      return bodies;
    },
  };
}

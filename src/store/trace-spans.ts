import { type Backend, parseJson } from './backend.js';
import { noteTraceBatches, type TraceBatch } from './trace-signals.js';

// The spans an OTLP exporter sent, by workspace and trace, as the receiver read them (the store
// keeps each span's body as JSON and knows nothing of its shape). Putting a span again keeps the
// first: exporters retry, and Collectors fan out twice. Their traces' rows in the receiver's outbox
// (trace-signals.ts) are written in the same transaction.

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
  /** A trace's spans' bodies, in the order they were first received. */
  ofTrace(workspace_id: string, trace_id: string): Promise<unknown[]>;
}

/** Rows per INSERT: five parameters each, well under either database's parameter limit. */
const ROWS_PER_INSERT = 500;

export function createTraceSpans(backend: Backend, now: () => Date): TraceSpans {
  return {
    async put(workspace_id, spans, batches) {
      if (spans.length === 0 && batches.length === 0) return;
      const at = now();
      const received_at = at.toISOString();
      await backend.transaction(async (sql) => {
        await noteTraceBatches(sql, workspace_id, batches, at.getTime());
        for (let at = 0; at < spans.length; at += ROWS_PER_INSERT) {
          const rows = spans.slice(at, at + ROWS_PER_INSERT);
          await sql.run(
            `INSERT INTO trace_spans (workspace_id, trace_id, span_id, body, received_at)
               VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}
               ON CONFLICT (workspace_id, trace_id, span_id) DO NOTHING`,
            rows.flatMap((span) => [
              workspace_id,
              span.trace_id,
              span.span_id,
              JSON.stringify(span.body),
              received_at,
            ]),
          );
        }
      });
    },
    async ofTrace(workspace_id, trace_id) {
      const rows = await backend.read((sql) =>
        sql.all(
          `SELECT body FROM trace_spans WHERE workspace_id = ? AND trace_id = ?
             ORDER BY received_at, span_id`,
          [workspace_id, trace_id],
        ),
      );
      return rows.map((row) => parseJson(row.body));
    },
  };
}

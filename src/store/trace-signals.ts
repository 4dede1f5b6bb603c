import type { Backend, Row, Sql } from './backend.js';

// The OTLP receiver's outbox (docs/traces.md#from-a-200-to-a-verdict): a row per trace whose
// workflow is still to be told that spans of it are stored, written in the transaction that
// stores them, so a 200 never depends on Temporal. Batches of one trace fold into its row. A row
// is due at once when a batch may end a run (an agent span or a root), else once the trace has
// been quiet for its idle timeout: its workflow starts when there is something to decide, not on
// every batch of a run still going. The signaller removes a row only as it stood when read.

/** What the receiver writes of one trace in one request. */
export interface TraceBatch {
  trace_id: string;
  /** Who sent it: `agent` (a workspace key) or `system`. */
  reporter: 'agent' | 'system';
  settle_ms: number;
  idle_ms: number;
  conversation_attribute: string | null;
  /** The batch holds a span that may end a run. */
  may_end: boolean;
}

/** A trace whose workflow is due to be told, as read. */
export interface DueTrace extends TraceBatch {
  workspace_id: string;
  /** Due because its last batch came `idle_ms` ago with no span that may end a run. */
  quiet: boolean;
  /** Which write of its row this is: `done` removes the row only at this version. */
  version: number;
}

/** What the signaller needs of the store. */
export interface TraceSignals {
  /** Traces due at `nowMs`: those that may end first, then the quiet ones, oldest first. */
  due(nowMs: number, limit: number): Promise<DueTrace[]>;
  /** The trace's workflow is told: its row goes, unless a batch came since it was read. */
  done(trace: DueTrace): Promise<void>;
  /** When the longest-waiting trace that may end came in (ms since the epoch), or null. */
  oldestEndingMs(): Promise<number | null>;
}

/** Folds a request's batches into their traces' rows, in the caller's transaction. */
export async function noteTraceBatches(
  sql: Sql,
  workspace_id: string,
  batches: readonly TraceBatch[],
  nowMs: number,
): Promise<void> {
  for (const batch of batches) {
    await sql.run(
      `INSERT INTO trace_signals (workspace_id, trace_id, reporter, settle_ms, idle_ms,
           conversation_attribute, may_end, since_ms, quiet_at_ms, version)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
         ON CONFLICT (workspace_id, trace_id) DO UPDATE SET
           reporter = excluded.reporter,
           settle_ms = excluded.settle_ms,
           idle_ms = excluded.idle_ms,
           conversation_attribute = excluded.conversation_attribute,
           since_ms = CASE WHEN trace_signals.may_end = 0 AND excluded.may_end = 1
             THEN excluded.since_ms ELSE trace_signals.since_ms END,
           may_end = CASE WHEN excluded.may_end = 1 THEN 1 ELSE trace_signals.may_end END,
           quiet_at_ms = excluded.quiet_at_ms,
           version = trace_signals.version + 1`,
      [
        workspace_id,
        batch.trace_id,
        batch.reporter,
        batch.settle_ms,
        batch.idle_ms,
        batch.conversation_attribute,
        batch.may_end ? 1 : 0,
        nowMs,
        nowMs + batch.idle_ms,
      ],
    );
  }
}

const dueTraceOf = (row: Row): DueTrace => ({
  workspace_id: String(row.workspace_id),
  trace_id: String(row.trace_id),
  reporter: row.reporter === 'agent' ? 'agent' : 'system',
  settle_ms: Number(row.settle_ms),
  idle_ms: Number(row.idle_ms),
  conversation_attribute:
    row.conversation_attribute === null ? null : String(row.conversation_attribute),
  may_end: Number(row.may_end) === 1,
  quiet: Number(row.may_end) !== 1,
  version: Number(row.version),
});

const COLUMNS = `workspace_id, trace_id, reporter, settle_ms, idle_ms, conversation_attribute,
  may_end, version`;

export function createTraceSignals(backend: Backend): TraceSignals {
  return {
    async due(nowMs, limit) {
      return backend.read(async (sql) => {
        const ending = await sql.all(
          `SELECT ${COLUMNS} FROM trace_signals WHERE may_end = 1 ORDER BY since_ms LIMIT ?`,
          [limit],
        );
        const quiet =
          ending.length < limit
            ? await sql.all(
                `SELECT ${COLUMNS} FROM trace_signals WHERE quiet_at_ms <= ? AND may_end = 0
                   ORDER BY quiet_at_ms LIMIT ?`,
                [nowMs, limit - ending.length],
              )
            : [];
        return [...ending, ...quiet].map(dueTraceOf);
      });
    },
    async done(trace) {
      await backend.transaction((sql) =>
        sql.run(
          'DELETE FROM trace_signals WHERE workspace_id = ? AND trace_id = ? AND version = ?',
          [trace.workspace_id, trace.trace_id, trace.version],
        ),
      );
    },
    async oldestEndingMs() {
      const [row] = await backend.read((sql) =>
        sql.all('SELECT MIN(since_ms) AS since FROM trace_signals WHERE may_end = 1'),
      );
      return row?.since === null || row?.since === undefined ? null : Number(row.since);
    },
  };
}

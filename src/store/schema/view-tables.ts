import type { ViewName, ViewValue } from '../../core/index.js';

// Where each view is kept: its table, and the columns (besides key and JSON body) that queries
// filter or order on. Both adapters write views through this one description.

type Columns = Record<string, string | number | null>;

interface ViewTable<V extends ViewName> {
  table: string;
  columns(value: ViewValue<V>): Columns;
}

export const viewTables: { [V in ViewName]: ViewTable<V> } = {
  threads: { table: 'threads', columns: () => ({}) },
  runs: {
    table: 'runs',
    columns: (run) => ({
      thread_id: run.thread_id,
      status: run.status,
      started_at: run.started_at,
      updated_at: run.updated_at,
    }),
  },
  artifacts: { table: 'artifacts', columns: () => ({}) },
  artifactVersions: {
    table: 'artifact_versions',
    columns: (version) => ({
      artifact_id: version.artifact_id,
      version: version.version,
      kind: version.kind,
      created_at: version.created_at,
      thread_id: version.thread_id,
      seq: version.seq,
    }),
  },
  messages: {
    table: 'messages',
    columns: (message) => ({
      thread_id: message.thread_id,
      seq: message.seq,
      run_id: message.run_id,
    }),
  },
  feedback: {
    table: 'feedback',
    columns: (record) => ({
      seq: record.seq,
      target_kind: record.target.kind,
      target_key: record.target_key,
      thread_id: record.thread_id,
      run_id: record.run_id,
      source: record.source,
      participant: record.participant,
      feedback_type: record.feedback_type,
      rating: record.rating ? 1 : 0,
      updated_at: record.updated_at,
    }),
  },
  rules: { table: 'rules', columns: (rule) => ({ seq: rule.seq }) },
  reviewQueues: { table: 'review_queues', columns: (queue) => ({ seq: queue.seq }) },
  judgeVersions: { table: 'judge_versions', columns: (version) => ({ seq: version.seq }) },
};

// A view's columns are the same for every value, so its statement is made once.
const upserts = new Map<ViewName, string>();

/** An upsert of one view row, in SQL both SQLite and Postgres accept (`?` placeholders). */
export function upsertStatement<V extends ViewName>(view: V, value: ViewValue<V>) {
  const { table, columns } = viewTables[view] as ViewTable<V>;
  const extra = columns(value);
  let text = upserts.get(view);
  if (text === undefined) {
    const names = ['workspace_id', 'key', 'body', ...Object.keys(extra)];
    const updates = names.slice(2).map((name) => `${name} = excluded.${name}`);
    text = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})
    ON CONFLICT (workspace_id, key) DO UPDATE SET ${updates.join(', ')}`;
    upserts.set(view, text);
  }
  return { text, extra: Object.values(extra), columns: Object.keys(extra) };
}

export const deleteStatement = (view: ViewName) =>
  `DELETE FROM ${viewTables[view].table} WHERE workspace_id = ? AND key = ?`;

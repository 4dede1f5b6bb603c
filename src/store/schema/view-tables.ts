import type { ViewName, ViewValue } from '../../core/index.js';

// Where each view is kept: its table, and the columns (besides key and JSON body) that queries
// filter or order on. Both adapters write views through this one description.

type Columns = Record<string, string | number | null>;

/** The names of `T`'s fields that can stand in a column as they are. */
type ColumnField<T> = {
  [K in keyof T & string]: T[K] extends string | number | null ? K : never;
}[keyof T & string];

/** Columns that copy the value's fields of the same names, in the order named. */
const copied =
  <T>(...fields: ColumnField<T>[]) =>
  (value: T): Columns =>
    Object.fromEntries(fields.map((field) => [field, value[field] as string | number | null]));

interface ViewTable<V extends ViewName> {
  table: string;
  columns(value: ViewValue<V>): Columns;
}

export const viewTables: { [V in ViewName]: ViewTable<V> } = {
  threads: { table: 'threads', columns: () => ({}) },
  runs: {
    table: 'runs',
    columns: copied('thread_id', 'status', 'started_at', 'updated_at'),
  },
  artifacts: { table: 'artifacts', columns: () => ({}) },
  artifactVersions: {
    table: 'artifact_versions',
    columns: copied('artifact_id', 'version', 'kind', 'created_at', 'thread_id', 'seq'),
  },
  messages: {
    table: 'messages',
    columns: copied('thread_id', 'seq', 'run_id'),
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
  rules: { table: 'rules', columns: copied('seq') },
  reviewQueues: { table: 'review_queues', columns: copied('seq') },
  judgeVersions: { table: 'judge_versions', columns: copied('seq') },
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

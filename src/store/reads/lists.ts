import type { Run, RunStatus, Thread } from '../../core/index.js';
import { parseJson, type Sql } from '../backend.js';
import { Conditions } from './conditions.js';

// Paged lists of threads and runs, each page one indexed range read: threads by id, runs newest
// first by (start, id).

export interface ThreadListOptions {
  /** Only threads whose id sorts after this one (the last of the previous page). */
  after?: string;
  limit: number;
}

/** Where a run list resumes: the last run of the previous page. */
export interface RunListKey {
  started_at: string;
  run_id: string;
}

export interface RunListOptions {
  thread_id?: string;
  /** Only runs with this trace id among their `trace_ids` (an OTel trace's runs). */
  trace_id?: string;
  status?: RunStatus;
  /** Runs started at or after this instant (ISO-8601), and before `started_before`. */
  started_from?: string;
  started_before?: string;
  /** Runs that ended (completed, stopped or failed) at or after this instant, and before. */
  ended_from?: string;
  ended_before?: string;
  after?: RunListKey;
  limit: number;
}

export async function readThreadList(
  sql: Sql,
  workspace_id: string,
  { after, limit }: ThreadListOptions,
): Promise<Thread[]> {
  const rows = await sql.all(
    `SELECT body FROM threads WHERE workspace_id = ?${after === undefined ? '' : ' AND key > ?'}
     ORDER BY key LIMIT ?`,
    after === undefined ? [workspace_id, limit] : [workspace_id, after, limit],
  );
  return rows.map((row) => parseJson<Thread>(row.body));
}

const ENDED: readonly RunStatus[] = ['completed', 'stopped', 'failed'];

export async function readRunList(
  sql: Sql,
  workspace_id: string,
  options: RunListOptions,
): Promise<Run[]> {
  const conditions = new Conditions()
    .add('workspace_id = ?', workspace_id)
    .equalEach(options, ['thread_id', 'status']);
  // The body holds the run's trace ids as a JSON array: its text is matched here, and each run
  // checked below (an id could appear in another field).
  if (options.trace_id !== undefined)
    conditions.add("body LIKE ? ESCAPE '\\'", likeOf(options.trace_id));
  if (options.started_from !== undefined) conditions.add('started_at >= ?', options.started_from);
  if (options.started_before !== undefined)
    conditions.add('started_at < ?', options.started_before);
  if (options.ended_from !== undefined || options.ended_before !== undefined) {
    // An ended run changes no more, so its last change is its end.
    conditions.add(`status IN (${ENDED.map(() => '?').join(', ')})`, ...ENDED);
    if (options.ended_from !== undefined) conditions.add('updated_at >= ?', options.ended_from);
    if (options.ended_before !== undefined) conditions.add('updated_at < ?', options.ended_before);
  }
  if (options.after !== undefined) {
    conditions.add(
      '(started_at < ? OR (started_at = ? AND key < ?))',
      options.after.started_at,
      options.after.started_at,
      options.after.run_id,
    );
  }
  const rows = await sql.all(
    `SELECT body FROM runs WHERE ${conditions.where.join(' AND ')}
     ORDER BY started_at DESC, key DESC LIMIT ?`,
    [...conditions.params, options.limit],
  );
  const runs = rows.map((row) => parseJson<Run>(row.body));
  const traceId = options.trace_id;
  return traceId === undefined ? runs : runs.filter((run) => run.trace_ids.includes(traceId));
}

/** A LIKE pattern for a JSON string of `text` anywhere in a body. */
const likeOf = (text: string) => `%${JSON.stringify(text).replace(/[\\%_]/g, '\\$&')}%`;

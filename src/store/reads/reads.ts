import {
  type Artifact,
  type ArtifactVersion,
  artifactVersionKey,
  type Envelope,
  emptyState,
  type FeedbackRecord,
  inOrderSent,
  type Message,
  messageKey,
  type Run,
  replay,
  ruleEventTypes,
  type StoredEvaluationRule,
  type Thread,
  targetKey,
  type ViewName,
  type ViewValue,
  viewNames,
  type WorkspaceState,
} from '../../core/index.js';
import { asNumber, parseJson, type Row, type Sql } from '../backend.js';
import type {
  ArtifactAtVersion,
  ConversationMessage,
  CursorBacklog,
  FeedbackFilter,
  ReadEventsOptions,
  ThreadEntry,
  ThreadPageRange,
} from '../port.js';
import { viewTables } from '../schema/view-tables.js';
import { Conditions } from './conditions.js';

// The store's read side: the log, the views, the cursors. Every function takes one connection.

export async function readEvents(sql: Sql, options: ReadEventsOptions): Promise<Envelope[]> {
  const { workspace_id, after = 0, thread_id, limit = 1000 } = options;
  const rows = await sql.all(
    `SELECT seq, id, ts, thread_id, run_id, actor, event FROM events
     WHERE workspace_id = ? AND seq > ?${thread_id === undefined ? '' : ' AND thread_id = ?'}
     ORDER BY seq LIMIT ?`,
    thread_id === undefined
      ? [workspace_id, after, limit]
      : [workspace_id, after, thread_id, limit],
  );
  return rows.map((row) => envelopeOf(workspace_id, row));
}

export function envelopeOf(workspace_id: string, row: Row): Envelope {
  return {
    seq: asNumber(row.seq),
    id: String(row.id),
    ts: String(row.ts),
    workspace_id,
    thread_id: (row.thread_id as string | null) ?? null,
    run_id: (row.run_id as string | null) ?? null,
    actor: parseJson(row.actor),
    event: parseJson(row.event),
  };
}

export async function readHead(sql: Sql, workspace_id: string): Promise<number> {
  const rows = await sql.all('SELECT last_seq FROM workspaces WHERE workspace_id = ?', [
    workspace_id,
  ]);
  return rows[0] === undefined ? 0 : asNumber(rows[0].last_seq);
}

async function one<V extends ViewName>(sql: Sql, view: V, workspace_id: string, key: string) {
  const rows = await sql.all(
    `SELECT body FROM ${viewTables[view].table} WHERE workspace_id = ? AND key = ?`,
    [workspace_id, key],
  );
  return rows[0] === undefined ? null : parseJson<ViewValue<V>>(rows[0].body);
}

export const readThread = (
  sql: Sql,
  workspace_id: string,
  thread_id: string,
): Promise<Thread | null> => one(sql, 'threads', workspace_id, thread_id);

export const readRun = (sql: Sql, workspace_id: string, run_id: string): Promise<Run | null> =>
  one(sql, 'runs', workspace_id, run_id);

export const readMessage = (
  sql: Sql,
  workspace_id: string,
  thread_id: string,
  message_id: string,
): Promise<Message | null> => one(sql, 'messages', workspace_id, messageKey(thread_id, message_id));

export async function readArtifact(
  sql: Sql,
  workspace_id: string,
  artifact_id: string,
  version?: number,
): Promise<ArtifactAtVersion | null> {
  const artifact: Artifact | null = await one(sql, 'artifacts', workspace_id, artifact_id);
  if (artifact === null) return null;
  const at = await one(
    sql,
    'artifactVersions',
    workspace_id,
    artifactVersionKey(artifact_id, version ?? artifact.current_version),
  );
  if (at === null) return null;
  return { ...at, current_version: artifact.current_version, archived: artifact.archived };
}

export async function readFeedback(
  sql: Sql,
  workspace_id: string,
  filter: FeedbackFilter = {},
): Promise<FeedbackRecord[]> {
  const { where, params } = new Conditions()
    .add('workspace_id = ?', workspace_id)
    .equal('target_key', filter.target === undefined ? undefined : targetKey(filter.target))
    .equalEach(filter, ['source', 'participant', 'thread_id', 'feedback_type', 'target_kind'])
    .between('updated_at', filter.updated_from, filter.updated_before);
  const rows = await sql.all(
    `SELECT body FROM feedback WHERE ${where.join(' AND ')} ORDER BY seq`,
    params,
  );
  return rows.map((row) => parseJson<FeedbackRecord>(row.body));
}

export async function readConversation(
  sql: Sql,
  workspace_id: string,
  thread_id: string,
): Promise<ConversationMessage[] | null> {
  if ((await readThread(sql, workspace_id, thread_id)) === null) return null;
  const messages = await sql.all(
    'SELECT body FROM messages WHERE workspace_id = ? AND thread_id = ? ORDER BY seq',
    [workspace_id, thread_id],
  );
  const feedback = await sql.all(
    `SELECT target_key, body FROM feedback
     WHERE workspace_id = ? AND thread_id = ? AND target_kind = 'message' ORDER BY seq`,
    [workspace_id, thread_id],
  );
  const byTarget = new Map<string, FeedbackRecord[]>();
  for (const row of feedback) {
    const key = String(row.target_key);
    byTarget.set(key, [...(byTarget.get(key) ?? []), parseJson<FeedbackRecord>(row.body)]);
  }
  return messages
    .map((row) => parseJson<Message>(row.body))
    .sort(inOrderSent)
    .map((message) => {
      if (message.role !== 'assistant') return message;
      const key = targetKey({
        kind: 'message',
        thread_id,
        message_id: message.message_id,
        run_id: null,
      });
      const grouped: ConversationMessage['feedback'] = {};
      for (const record of byTarget.get(key) ?? []) {
        const group = grouped[record.source] ?? [];
        group.push(record);
        grouped[record.source] = group;
      }
      return { ...message, feedback: grouped };
    });
}

/** A thread's runs, in the order they started (ties by id). */
export async function readThreadRuns(
  sql: Sql,
  workspace_id: string,
  thread_id: string,
): Promise<Run[]> {
  const rows = await sql.all('SELECT body FROM runs WHERE workspace_id = ? AND thread_id = ?', [
    workspace_id,
    thread_id,
  ]);
  return rows
    .map((row) => parseJson<Run>(row.body))
    .sort((a, b) =>
      a.started_at === b.started_at
        ? a.run_id < b.run_id
          ? -1
          : 1
        : a.started_at < b.started_at
          ? -1
          : 1,
    );
}

/**
 * A page of a thread's conversation in log order: its messages and its artifact versions with a
 * seq after `after` and at most `through`, the first `limit` of them. Each table is read by its
 * (workspace, thread, seq) index, so a page costs the same at any depth.
 */
export async function readThreadPage(
  sql: Sql,
  workspace_id: string,
  thread_id: string,
  { after, through, limit }: ThreadPageRange,
): Promise<ThreadEntry[]> {
  const range = [workspace_id, thread_id, after, through, limit];
  const messages = await sql.all(
    `SELECT body FROM messages WHERE workspace_id = ? AND thread_id = ? AND seq > ? AND seq <= ?
     ORDER BY seq LIMIT ?`,
    range,
  );
  const artifacts = await sql.all(
    `SELECT body, seq FROM artifact_versions WHERE workspace_id = ? AND thread_id = ?
       AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?`,
    range,
  );
  const entries: ThreadEntry[] = [
    ...messages.map((row): ThreadEntry => {
      const message = parseJson<Message>(row.body);
      return { kind: 'message', seq: message.seq, message };
    }),
    ...artifacts.map((row): ThreadEntry => {
      const artifact = parseJson<ArtifactVersion>(row.body);
      return { kind: 'artifact', seq: asNumber(row.seq), artifact };
    }),
  ];
  return entries.sort((a, b) => a.seq - b.seq).slice(0, limit);
}

export async function readViews(sql: Sql, workspace_id: string): Promise<WorkspaceState> {
  const state = emptyState();
  for (const view of viewNames) {
    const rows = await sql.all(
      `SELECT key, body FROM ${viewTables[view].table} WHERE workspace_id = ? ORDER BY key`,
      [workspace_id],
    );
    const target = state[view] as Map<string, unknown>;
    for (const row of rows) target.set(String(row.key), parseJson(row.body));
  }
  return state;
}

export async function readCursor(sql: Sql, workspace_id: string, name: string): Promise<number> {
  const rows = await sql.all('SELECT seq FROM cursors WHERE workspace_id = ? AND name = ?', [
    workspace_id,
    name,
  ]);
  return rows[0] === undefined ? 0 : asNumber(rows[0].seq);
}

/** Saves only forward: a lower seq leaves the cursor where it is. */
export async function writeCursor(
  sql: Sql,
  workspace_id: string,
  name: string,
  seq: number,
): Promise<number> {
  if (!Number.isSafeInteger(seq) || seq < 0) {
    throw new RangeError(`a cursor's seq is an integer ≥ 0, not ${seq}`);
  }
  await sql.run(
    `INSERT INTO cursors (workspace_id, name, seq) VALUES (?, ?, ?)
     ON CONFLICT (workspace_id, name) DO UPDATE
     SET seq = CASE WHEN excluded.seq > cursors.seq THEN excluded.seq ELSE cursors.seq END`,
    [workspace_id, name, seq],
  );
  return readCursor(sql, workspace_id, name);
}

/**
 * How far a named cursor trails the log over every workspace: the workspaces ahead of it, each
 * with the events after it and the first of those (seqs are gap-free, so it is cursor + 1).
 */
export async function readBacklog(sql: Sql, name: string): Promise<CursorBacklog> {
  const rows = await sql.all(
    `SELECT w.last_seq - COALESCE(c.seq, 0) AS behind,
       (SELECT e.ts FROM events e
         WHERE e.workspace_id = w.workspace_id AND e.seq = COALESCE(c.seq, 0) + 1) AS oldest
     FROM workspaces w LEFT JOIN cursors c ON c.workspace_id = w.workspace_id AND c.name = ?
     WHERE w.last_seq > COALESCE(c.seq, 0)`,
    [name],
  );
  let events = 0;
  let oldest: number | null = null;
  for (const row of rows) {
    events += asNumber(row.behind);
    const at = row.oldest === null ? Number.NaN : Date.parse(String(row.oldest));
    if (!Number.isNaN(at) && (oldest === null || at < oldest)) oldest = at;
  }
  return {
    events,
    workspaces: rows.length,
    oldest_ts: oldest === null ? null : new Date(oldest).toISOString(),
  };
}

/** A workspace's own rules, by evaluator version. */
export async function readRules(sql: Sql, workspace_id: string): Promise<StoredEvaluationRule[]> {
  const rows = await sql.all('SELECT body FROM rules WHERE workspace_id = ? ORDER BY key', [
    workspace_id,
  ]);
  return rows.map((row) => parseJson<StoredEvaluationRule>(row.body));
}

/**
 * The workspace's rules as they stood right after `seq`. The view answers unless a rule was set
 * after `seq` (a reader lagging behind the log); only then is the log's rule history replayed.
 */
export async function readRulesAt(
  sql: Sql,
  workspace_id: string,
  seq: number,
): Promise<StoredEvaluationRule[]> {
  const current = await readRules(sql, workspace_id);
  if (current.every((rule) => rule.seq <= seq)) return current;
  const rows = await sql.all(
    `SELECT seq, id, ts, thread_id, run_id, actor, event FROM events
     WHERE workspace_id = ? AND type IN (${ruleEventTypes.map(() => '?').join(', ')})
     AND seq <= ? ORDER BY seq`,
    [workspace_id, ...ruleEventTypes, seq],
  );
  const state = replay(rows.map((row) => envelopeOf(workspace_id, row)));
  return [...state.rules.values()].sort((a, b) => (a.evaluator < b.evaluator ? -1 : 1));
}

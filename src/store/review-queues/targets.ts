import {
  type Artifact,
  type ArtifactVersion,
  artifactVersionKey,
  type Message,
  messageKey,
  notFound,
  type Rejection,
  type Run,
  type Target,
  type Thread,
} from '../../core/index.js';
import { parseJson, type Sql } from '../backend.js';
import type { ReviewTargetFilter } from './port.js';

// The targets a queue takes in: those named by hand, each checked against the views (a message
// as it was posted, with its run, as a rating's target is), and those a filter selects, read from
// the views in keyset pages on the server.

const CHUNK = 500;

/** The rows of `table` among `keys`, by key. */
async function bodiesOf<T>(
  sql: Sql,
  table: string,
  workspace_id: string,
  keys: readonly string[],
): Promise<Map<string, T>> {
  const found = new Map<string, T>();
  const unique = [...new Set(keys)];
  for (let at = 0; at < unique.length; at += CHUNK) {
    const chunk = unique.slice(at, at + CHUNK);
    const rows = await sql.all(
      `SELECT key, body FROM ${table} WHERE workspace_id = ? AND key IN (${chunk.map(() => '?').join(', ')})`,
      [workspace_id, ...chunk],
    );
    for (const row of rows) found.set(String(row.key), parseJson<T>(row.body));
  }
  return found;
}

/**
 * The targets as the queue keeps them, or the first one that does not exist, refused: a run, a
 * thread, an artifact version, or a posted message (whose run the target takes from the log).
 */
export async function resolveTargets(
  sql: Sql,
  workspace_id: string,
  targets: readonly Target[],
): Promise<Target[] | Rejection> {
  const keysOf = <K extends Target['kind']>(
    kind: K,
    key: (target: Extract<Target, { kind: K }>) => string,
  ) =>
    targets
      .filter((target): target is Extract<Target, { kind: K }> => target.kind === kind)
      .map(key);
  const runs = await bodiesOf<Run>(
    sql,
    'runs',
    workspace_id,
    keysOf('turn', (t) => t.run_id),
  );
  const threads = await bodiesOf<Thread>(
    sql,
    'threads',
    workspace_id,
    keysOf('thread', (t) => t.thread_id),
  );
  const messages = await bodiesOf<Message>(
    sql,
    'messages',
    workspace_id,
    keysOf('message', (m) => messageKey(m.thread_id, m.message_id)),
  );
  const versions = await bodiesOf<ArtifactVersion>(
    sql,
    'artifact_versions',
    workspace_id,
    keysOf('artifact', (a) => artifactVersionKey(a.artifact_id, a.version)),
  );
  const resolved: Target[] = [];
  for (const target of targets) {
    switch (target.kind) {
      case 'turn':
        if (!runs.has(target.run_id)) return notFound('run', target.run_id);
        resolved.push(target);
        break;
      case 'thread':
        if (!threads.has(target.thread_id)) return notFound('thread', target.thread_id);
        resolved.push(target);
        break;
      case 'message': {
        const message = messages.get(messageKey(target.thread_id, target.message_id));
        if (message === undefined) {
          return notFound('message', `${target.thread_id}/${target.message_id}`);
        }
        resolved.push({ ...target, run_id: message.run_id });
        break;
      }
      case 'artifact':
        if (!versions.has(artifactVersionKey(target.artifact_id, target.version))) {
          return notFound('artifact version', `${target.artifact_id} v${target.version}`);
        }
        resolved.push(target);
        break;
    }
  }
  return resolved;
}

const within = (at: string, from: string | undefined, to: string | undefined) =>
  (from === undefined || at >= from) && (to === undefined || at < to);

/**
 * The targets a filter selects, a page at a time in key order: each page is read in one read of
 * the views, so a filter over many targets never holds the writer.
 */
export async function* matchingTargets(
  read: <T>(work: (sql: Sql) => Promise<T>) => Promise<T>,
  workspace_id: string,
  filter: ReviewTargetFilter,
  pageSize = CHUNK,
): AsyncGenerator<Target[]> {
  let after = '';
  for (;;) {
    const { rows, last } = await read(async (sql) => {
      const page = await pageOf(sql, workspace_id, filter, after, pageSize);
      return { rows: await selected(sql, workspace_id, filter, page), last: page.at(-1)?.key };
    });
    if (rows.length > 0) yield rows;
    if (last === undefined) return;
    after = last;
  }
}

async function pageOf(
  sql: Sql,
  workspace_id: string,
  filter: ReviewTargetFilter,
  after: string,
  limit: number,
): Promise<{ key: string; body: unknown }[]> {
  const table = {
    turn: 'runs',
    message: 'messages',
    artifact: 'artifact_versions',
    thread: 'threads',
  }[filter.kind];
  const narrow: [string, unknown][] = [];
  if ((filter.kind === 'turn' || filter.kind === 'message') && filter.thread_id !== undefined) {
    narrow.push(['thread_id = ?', filter.thread_id]);
  }
  const kinds = filter.kind === 'artifact' ? filter.artifact_kinds : undefined;
  const rows = await sql.all(
    `SELECT key, body FROM ${table} WHERE workspace_id = ? AND key > ?${narrow
      .map(([clause]) => ` AND ${clause}`)
      .join('')}${kinds ? ` AND kind IN (${kinds.map(() => '?').join(', ')})` : ''}
     ORDER BY key LIMIT ?`,
    [workspace_id, after, ...narrow.map(([, value]) => value), ...(kinds ?? []), limit],
  );
  return rows.map((row) => ({ key: String(row.key), body: parseJson(row.body) }));
}

async function selected(
  sql: Sql,
  workspace_id: string,
  filter: ReviewTargetFilter,
  page: readonly { body: unknown }[],
): Promise<Target[]> {
  switch (filter.kind) {
    case 'turn':
      return (page.map((row) => row.body) as Run[])
        .filter(
          (run) =>
            (filter.statuses === undefined || filter.statuses.includes(run.status)) &&
            within(run.started_at, filter.started_from, filter.started_to),
        )
        .map((run) => ({ kind: 'turn', run_id: run.run_id }));
    case 'message':
      return (page.map((row) => row.body) as Message[])
        .filter(
          (message) =>
            (filter.roles === undefined || filter.roles.includes(message.role)) &&
            (filter.run_id === undefined || message.run_id === filter.run_id),
        )
        .map((message) => ({
          kind: 'message',
          thread_id: message.thread_id,
          message_id: message.message_id,
          run_id: message.run_id,
        }));
    case 'artifact': {
      const versions = (page.map((row) => row.body) as ArtifactVersion[]).filter((version) =>
        within(version.created_at, filter.created_from, filter.created_to),
      );
      const current = filter.latest_only
        ? await bodiesOf<Artifact>(
            sql,
            'artifacts',
            workspace_id,
            versions.map((version) => version.artifact_id),
          )
        : undefined;
      return versions
        .filter(
          (version) =>
            current === undefined ||
            current.get(version.artifact_id)?.current_version === version.version,
        )
        .map((version) => ({
          kind: 'artifact',
          artifact_id: version.artifact_id,
          version: version.version,
        }));
    }
    case 'thread':
      return (page.map((row) => row.body) as Thread[])
        .filter((thread) => within(thread.created_at, filter.created_from, filter.created_to))
        .map((thread) => ({ kind: 'thread', thread_id: thread.thread_id }));
  }
}

import type { RunStatus } from '../../core/events.js';
import { targetKey } from '../../core/keys.js';
import { messageKey } from '../../core/state.js';
import type { EvaluationTarget } from '../../core/targets.js';
import { asNumber, type Backend, parseJson } from '../backend.js';
import { Conditions } from './conditions.js';

// Keyset pages of the runs (turns), messages and threads a backfill judges. Each kind reads in
// the order of an index that also serves its filters, so a page costs the same at any depth:
// turns by (updated_at, run id) (`runs_by_update`, migration 13: an ended run's updated_at is
// when it ended), messages by (thread id, seq) (`messages_by_thread`), threads by id (the key).
// A message or a thread is selected through its runs: a message's own run, any of a thread's.

export const backfillKinds = ['turn', 'message', 'thread'] as const;
export type BackfillKind = (typeof backfillKinds)[number];

export interface BackfillSelector {
  kind: BackfillKind;
  threadIds?: readonly string[];
  /** ISO-8601 instants: the run ended at or after `endedFrom` and before `endedTo`. */
  endedFrom?: string;
  endedTo?: string;
  /** The run's status is one of these. */
  statuses?: readonly RunStatus[];
  /**
   * Only these targets, all of `kind` (a judge version's held-out ones, say): a target not in
   * the store is not selected.
   */
  targets?: readonly EvaluationTarget[];
}

/** What is wrong with a selector's own targets, or null: each is of the kind it selects. */
export function selectorTargetsProblem(selector: BackfillSelector): string | null {
  const other = selector.targets?.find((target) => target.kind !== selector.kind);
  return other === undefined
    ? null
    : `a selection of ${selector.kind} targets names only ${selector.kind} targets, not ${targetKey(other)}`;
}

/** Where a page ends: the sort columns of its last row. */
export type BackfillCursor = readonly [string, string | number];

export interface BackfillRow {
  target: EvaluationTarget;
  cursor: BackfillCursor;
}

const endedStatuses = ['completed', 'stopped', 'failed'];

/** The run filters, on a `runs` row aliased `r`. */
function runFilters(selector: BackfillSelector): Conditions {
  const conditions = new Conditions();
  const statuses =
    selector.endedFrom !== undefined || selector.endedTo !== undefined
      ? (selector.statuses ?? endedStatuses).filter((status) => endedStatuses.includes(status))
      : selector.statuses;
  if (statuses !== undefined) {
    conditions.add(
      statuses.length === 0 ? '1 = 0' : `r.status IN (${statuses.map(() => '?')})`,
      ...statuses,
    );
  }
  return conditions.between('r.updated_at', selector.endedFrom, selector.endedTo);
}

function threadFilter(column: string, selector: BackfillSelector) {
  if (selector.threadIds === undefined) return { where: [], params: [] };
  if (selector.threadIds.length === 0) return { where: ['1 = 0'], params: [] };
  return {
    where: [`${column} IN (${selector.threadIds.map(() => '?')})`],
    params: [...selector.threadIds],
  };
}

/** The selector's own targets, by the key of the view `column` reads (none given: no filter). */
function targetsFilter(column: string, selector: BackfillSelector) {
  if (selector.targets === undefined) return { where: [], params: [] };
  const keys = selector.targets.flatMap((target): string[] => {
    switch (target.kind) {
      case 'turn':
        return [target.run_id];
      case 'message':
        return [messageKey(target.thread_id, target.message_id)];
      case 'thread':
        return [target.thread_id];
      default:
        return [];
    }
  });
  if (keys.length === 0) return { where: ['1 = 0'], params: [] };
  return { where: [`${column} IN (${keys.map(() => '?')})`], params: keys };
}

/** A message or thread selected through its runs: some run joined by `join` meets the filters. */
function throughRuns(runs: { where: string[] }, join: string): string[] {
  if (runs.where.length === 0) return [];
  return [`EXISTS (SELECT 1 FROM runs r WHERE ${join} AND ${runs.where.join(' AND ')})`];
}

interface Query {
  from: string;
  where: string[];
  params: unknown[];
  columns: string;
  order: [string, string];
}

/**
 * Where a kind of target is read: its view, aliased `alias`; the column naming its thread; how
 * a run of it is joined (a run is its own, so none); the columns a page reads, and its order.
 */
interface TargetSource extends Pick<Query, 'from' | 'columns' | 'order'> {
  alias: string;
  threadColumn: string;
  join?: string;
}

const sources: Record<BackfillKind, TargetSource> = {
  turn: {
    from: 'runs r',
    alias: 'r',
    threadColumn: 'r.thread_id',
    columns: 'r.key AS id, r.thread_id, r.updated_at',
    order: ['r.updated_at', 'r.key'],
  },
  message: {
    from: 'messages m',
    alias: 'm',
    threadColumn: 'm.thread_id',
    join: 'r.workspace_id = m.workspace_id AND r.key = m.run_id',
    columns: 'm.body, m.thread_id, m.seq',
    order: ['m.thread_id', 'm.seq'],
  },
  thread: {
    from: 'threads t',
    alias: 't',
    threadColumn: 't.key',
    join: 'r.workspace_id = t.workspace_id AND r.thread_id = t.key',
    columns: 't.key AS id',
    order: ['t.key', 't.key'],
  },
};

// The rows of the selector's kind in the workspace, among the threads and targets named, that
// meet the run filters: on the row itself (a run's), or through the runs its `join` finds.
function queryOf(workspace_id: string, selector: BackfillSelector): Query {
  const { from, alias, threadColumn, join, columns, order } = sources[selector.kind];
  const runs = runFilters(selector);
  const threads = threadFilter(threadColumn, selector);
  const own = targetsFilter(`${alias}.key`, selector);
  const byRuns = join === undefined ? runs.where : throughRuns(runs, join);
  return {
    from,
    where: [`${alias}.workspace_id = ?`, ...threads.where, ...own.where, ...byRuns],
    params: [workspace_id, ...threads.params, ...own.params, ...runs.params],
    columns,
    order,
  };
}

export async function countBackfillTargets(
  backend: Backend,
  workspace_id: string,
  selector: BackfillSelector,
): Promise<number> {
  const { from, where, params } = queryOf(workspace_id, selector);
  const rows = await backend.read((sql) =>
    sql.all(`SELECT COUNT(*) AS n FROM ${from} WHERE ${where.join(' AND ')}`, params),
  );
  return asNumber(rows[0]?.n ?? 0);
}

export async function listBackfillTargets(
  backend: Backend,
  workspace_id: string,
  selector: BackfillSelector,
  after: BackfillCursor | null,
  limit: number,
): Promise<BackfillRow[]> {
  const { from, where, params, columns, order } = queryOf(workspace_id, selector);
  const [first, second] = order;
  if (after !== null) {
    if (first === second) {
      where.push(`${first} > ?`);
      params.push(after[0]);
    } else {
      where.push(`(${first} > ? OR (${first} = ? AND ${second} > ?))`);
      params.push(after[0], after[0], after[1]);
    }
  }
  const orderBy = first === second ? first : `${first}, ${second}`;
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT ${columns} FROM ${from} WHERE ${where.join(' AND ')} ORDER BY ${orderBy} LIMIT ?`,
      [...params, limit],
    ),
  );
  return rows.map((row): BackfillRow => {
    switch (selector.kind) {
      case 'turn':
        return {
          target: { kind: 'turn', run_id: String(row.id) },
          cursor: [String(row.updated_at), String(row.id)],
        };
      case 'message': {
        const message = parseJson<{ message_id: string; thread_id: string; run_id: string | null }>(
          row.body,
        );
        return {
          target: {
            kind: 'message',
            message_id: message.message_id,
            thread_id: message.thread_id,
            run_id: message.run_id ?? null,
          },
          cursor: [String(row.thread_id), asNumber(row.seq)],
        };
      }
      default:
        return {
          target: { kind: 'thread', thread_id: String(row.id) },
          cursor: [String(row.id), String(row.id)],
        };
    }
  });
}

/**
 * Which of `participants` has recorded a verdict on which of `targets`, in any generation, as
 * `{participant}|{target key}` (`evaluation_ledger_by_target`, migration 13, serves the lookup).
 */
export async function recordedTargets(
  backend: Backend,
  workspace_id: string,
  participants: readonly string[],
  targets: readonly EvaluationTarget[],
): Promise<Set<string>> {
  if (participants.length === 0 || targets.length === 0) return new Set();
  const keys = targets.map((target) => targetKey(target));
  const rows = await backend.read((sql) =>
    sql.all(
      `SELECT DISTINCT participant, target_key FROM evaluation_ledger WHERE workspace_id = ?
         AND participant IN (${participants.map(() => '?')})
         AND target_key IN (${keys.map(() => '?')}) AND state = 'recorded'`,
      [workspace_id, ...participants, ...keys],
    ),
  );
  return new Set(rows.map((row) => `${String(row.participant)}|${String(row.target_key)}`));
}

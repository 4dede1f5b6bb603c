import {
  emptyState,
  type FeedbackRecord,
  type Needs,
  targetKey,
  type ViewChange,
  type WorkspaceState,
} from '../../core/index.js';
import type { AbsentEntity, Sql } from '../backend.js';
import { loadState } from './load-state.js';

// Each workspace's decision state, kept warm between appends instead of loaded again: the
// entities its commands needed, as of the workspace's seq `seq`. Other processes may append to
// the same database, so an entry is only ever used at the seq it was taken at, which every
// append checks against the workspace's row inside its own transaction (`appendAt`, or the
// lock of the full path); any other seq, or a failed write, drops the entry.

/** Appends to one workspace in this process run one at a time: an entry has one user. */
export interface WarmWorkspace {
  seq: number;
  ts: string;
  readonly state: WorkspaceState;
  /** The needs whose answer `state` holds in full (`needKeys`), an absent entity among them. */
  readonly known: Set<string>;
}

/** An entity the decision took to be absent: the append checks it still is. */
type EntityView = AbsentEntity['view'];
const ENTITY_VIEWS: readonly EntityView[] = [
  'threads',
  'runs',
  'artifacts',
  'messages',
  'judgeVersions',
];

const MAX_WORKSPACES = 1000;
// An entry holding more entities than this is dropped, to be loaded again as needed.
const MAX_ENTITIES = 5000;

export class WarmWorkspaces {
  private readonly entries = new Map<string, WarmWorkspace>();

  /** The entry of `workspace_id` if it is at `seq`, else none. */
  at(workspace_id: string, seq: number): WarmWorkspace | undefined {
    const entry = this.entries.get(workspace_id);
    return entry !== undefined && entry.seq === seq ? entry : undefined;
  }

  /** The entry of `workspace_id`, whatever its seq (the caller checks it against the row). */
  latest(workspace_id: string): WarmWorkspace | undefined {
    return this.entries.get(workspace_id);
  }

  /**
   * The entry at `seq` (read under the workspace's lock), a new empty one when the kept entry
   * is at another seq or missing, with what `needs` asks and it lacks loaded through `sql`.
   */
  async loaded(sql: Sql, workspace_id: string, seq: number, ts: string, needs: Needs) {
    let entry = this.at(workspace_id, seq);
    if (entry === undefined) {
      entry = { seq, ts, state: emptyState(), known: new Set() };
      this.keep(workspace_id, entry);
    }
    const missing = missingNeeds(entry, needs);
    if (missing !== null) {
      await loadState(sql, workspace_id, missing, entry.state);
      for (const key of needKeys(missing)) entry.known.add(key);
    }
    return entry;
  }

  /**
   * The entities the entry does not know among `needs`, for a decision that takes them to be
   * absent and an append that holds only while they are; null when a need is of feedback the
   * entry does not know (those are read, not assumed).
   */
  unknownEntities(entry: WarmWorkspace, needs: Needs): AbsentEntity[] | null {
    const missing = missingNeeds(entry, needs);
    if (missing === null) return [];
    if (missing.ratingsOn.length > 0 || missing.ownFeedback.length > 0) return null;
    const absent: AbsentEntity[] = [];
    for (const view of ENTITY_VIEWS) {
      for (const key of new Set(missing[view])) absent.push({ view, key });
    }
    return absent;
  }

  /**
   * Takes in what one append changed, now committed at `seq`: each changed entity's new value
   * is its whole state, so it is known from now on, as is each entity the append found absent;
   * feedback is kept where a known need (the ratings on a message, a participant's own
   * feedback) covers it.
   */
  committed(
    workspace_id: string,
    entry: WarmWorkspace,
    seq: number,
    ts: string,
    changes: readonly ViewChange[],
    absent: readonly AbsentEntity[] = [],
  ) {
    if (this.entries.get(workspace_id) !== entry) return;
    for (const { view, key } of absent) entry.known.add(`${view} ${key}`);
    for (const change of changes) absorb(entry, change);
    entry.seq = seq;
    entry.ts = ts;
    if (sizeOf(entry.state) > MAX_ENTITIES) this.entries.delete(workspace_id);
  }

  /** Forgets the workspace: a write failed or came out of order. */
  drop(workspace_id: string) {
    this.entries.delete(workspace_id);
  }

  private keep(workspace_id: string, entry: WarmWorkspace) {
    this.entries.delete(workspace_id);
    this.entries.set(workspace_id, entry);
    if (this.entries.size > MAX_WORKSPACES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }
}

const ratingsKey = (target_key: string) => `ratings ${target_key}`;
const ownKey = (participant: string, feedback_type: string, target_key: string) =>
  `own ${JSON.stringify([participant, feedback_type, target_key])}`;

/** The known-set keys of every need in `needs`. */
function needKeys(needs: Needs): string[] {
  return [
    ...needs.threads.map((id) => `threads ${id}`),
    ...needs.runs.map((id) => `runs ${id}`),
    ...needs.artifacts.map((id) => `artifacts ${id}`),
    ...needs.messages.map((key) => `messages ${key}`),
    ...needs.judgeVersions.map((id) => `judgeVersions ${id}`),
    ...needs.ratingsOn.map(({ thread_id, message_id }) =>
      ratingsKey(targetKey({ kind: 'message', thread_id, message_id, run_id: null })),
    ),
    ...needs.ownFeedback.map(({ participant, feedback_type, target }) =>
      ownKey(participant, feedback_type, targetKey(target)),
    ),
  ];
}

/** The needs the entry does not know yet, or null when it knows them all. */
function missingNeeds(entry: WarmWorkspace, needs: Needs): Needs | null {
  const { known } = entry;
  const missing: Needs = {
    threads: needs.threads.filter((id) => !known.has(`threads ${id}`)),
    runs: needs.runs.filter((id) => !known.has(`runs ${id}`)),
    artifacts: needs.artifacts.filter((id) => !known.has(`artifacts ${id}`)),
    messages: needs.messages.filter((key) => !known.has(`messages ${key}`)),
    ratingsOn: needs.ratingsOn.filter(
      ({ thread_id, message_id }) =>
        !known.has(ratingsKey(targetKey({ kind: 'message', thread_id, message_id, run_id: null }))),
    ),
    ownFeedback: needs.ownFeedback.filter(
      ({ participant, feedback_type, target }) =>
        !known.has(ownKey(participant, feedback_type, targetKey(target))),
    ),
    scoreConfigs: [],
    judgeVersions: needs.judgeVersions.filter((id) => !known.has(`judgeVersions ${id}`)),
  };
  const none =
    missing.threads.length === 0 &&
    missing.runs.length === 0 &&
    missing.artifacts.length === 0 &&
    missing.messages.length === 0 &&
    missing.ratingsOn.length === 0 &&
    missing.ownFeedback.length === 0 &&
    missing.judgeVersions.length === 0;
  return none ? null : missing;
}

function absorb(entry: WarmWorkspace, change: ViewChange) {
  const { state, known } = entry;
  switch (change.view) {
    case 'threads':
    case 'runs':
    case 'artifacts':
    case 'messages':
    case 'judgeVersions': {
      const view = state[change.view] as Map<string, unknown>;
      if (change.value === null) view.delete(change.key);
      else view.set(change.key, change.value);
      known.add(`${change.view} ${change.key}`);
      return;
    }
    case 'feedback': {
      if (change.value === null) {
        state.feedback.delete(change.key);
        return;
      }
      if (state.feedback.has(change.key) || covered(known, change.value)) {
        state.feedback.set(change.key, change.value);
      }
      return;
    }
    // No command reads artifact versions or rules (`needsOf` never asks for them).
    case 'artifactVersions':
    case 'rules':
      return;
  }
}

const covered = (known: Set<string>, record: FeedbackRecord) =>
  (record.rating && known.has(ratingsKey(record.target_key))) ||
  known.has(ownKey(record.participant, record.feedback_type, record.target_key));

const sizeOf = (state: WorkspaceState) =>
  state.threads.size +
  state.runs.size +
  state.artifacts.size +
  state.messages.size +
  state.feedback.size;

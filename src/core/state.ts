import type { Actor } from './actors.js';
import type { MessageRole } from './commands.js';
import type { RunStatus } from './events.js';
import type { StoredJudgeVersion } from './judge-versions.js';
import { keyPart, targetKey } from './keys.js';
import type { StoredReviewQueue } from './review-queues.js';
import type { StoredEvaluationRule } from './rules.js';
import type { ScoreSource } from './sources.js';
import type { Target } from './targets.js';

// The workspace's entities, as `decide` reads them and the store's views serve them. `decide`
// only ever sees the few entities a command needs (`needsOf`); a replay of the whole log builds
// all of them, which is how tests prove the store's views right.

export interface Thread {
  thread_id: string;
  title: string | null;
  created_at: string;
  /**
   * When its host ended it (`end_thread`), until a run starts or a message is posted in it again.
   * Absent on threads recorded before threads could end: read it as null.
   */
  ended_at?: string | null;
}

export interface Run {
  run_id: string;
  thread_id: string;
  status: RunStatus;
  /** Oldest first: a resumed run appends its new trace, and scores attach to the latest. */
  trace_ids: string[];
  pause_reason: string | null;
  started_at: string;
  updated_at: string;
}

export interface Artifact {
  artifact_id: string;
  kind: string;
  current_version: number;
  archived: boolean;
  /** The thread whose agent created it; null when the system did. */
  thread_id: string | null;
}

export interface ArtifactVersion {
  artifact_id: string;
  version: number;
  kind: string;
  data: unknown;
  trace_id: string | null;
  /** The run that produced this version, when one was named. */
  run_id: string | null;
  /** The participant that put this version. */
  author: string;
  /** The thread it was produced in: its run's, else the author's when that was an agent. */
  thread_id: string | null;
  created_at: string;
  /** The seq of its `artifact_put`, which orders it among its thread's messages. */
  seq: number;
}

export interface Message {
  message_id: string;
  thread_id: string;
  run_id: string | null;
  role: MessageRole;
  content: string;
  author: string;
  seq: number;
  posted_at: string;
}

/**
 * Messages in the order they were sent (`posted_at`, which a reporter may give: history exported
 * late, two turns' traces recorded in the other order), ties in log order. Stored times compare
 * as text (reported-times.ts).
 */
export const inOrderSent = (a: Message, b: Message): number =>
  a.posted_at === b.posted_at ? a.seq - b.seq : a.posted_at < b.posted_at ? -1 : 1;

/**
 * Current feedback, keyed by its identity (the envelope id that first recorded it). Replaced
 * feedback (a user's rating, a reviewer's feedback) keeps its identity with the new value;
 * deleted or withdrawn feedback is gone (the log keeps both).
 */
export interface FeedbackRecord {
  id: string;
  seq: number;
  ts: string;
  feedback_type: string;
  target: Target;
  target_key: string;
  value: Record<string, unknown>;
  thread_id: string | null;
  run_id: string | null;
  source: ScoreSource;
  source_label: string | null;
  participant: string;
  actor: Actor;
  /** A user's message rating (rate_message), as a rated message lists them. */
  rating: boolean;
  /** Present, true, on a shadow version's verdict: not its feedback type's current verdict. */
  shadow?: true;
  updated_seq: number;
  updated_at: string;
}

export interface WorkspaceState {
  threads: Map<string, Thread>;
  runs: Map<string, Run>;
  artifacts: Map<string, Artifact>;
  /** Keyed by `artifactVersionKey`. */
  artifactVersions: Map<string, ArtifactVersion>;
  /** Keyed by `messageKey`: message ids are the client's and only unique within a thread. */
  messages: Map<string, Message>;
  feedback: Map<string, FeedbackRecord>;
  /** The workspace's own evaluation rules, keyed by evaluator version (`name@version`). */
  rules: Map<string, StoredEvaluationRule>;
  /** The workspace's own review queues, keyed by queue id. */
  reviewQueues: Map<string, StoredReviewQueue>;
  /** The workspace's recorded judge versions, keyed by their id (`judge@version`). */
  judgeVersions: Map<string, StoredJudgeVersion>;
}

export type ViewName = keyof WorkspaceState;
export type ViewValue<V extends ViewName> =
  WorkspaceState[V] extends Map<string, infer T> ? T : never;

export const viewNames: readonly ViewName[] = [
  'threads',
  'runs',
  'artifacts',
  'artifactVersions',
  'messages',
  'feedback',
  'rules',
  'reviewQueues',
  'judgeVersions',
];

export function emptyState(): WorkspaceState {
  return {
    threads: new Map(),
    runs: new Map(),
    artifacts: new Map(),
    artifactVersions: new Map(),
    messages: new Map(),
    feedback: new Map(),
    rules: new Map(),
    reviewQueues: new Map(),
    judgeVersions: new Map(),
  };
}

export const messageKey = (thread_id: string, message_id: string): string =>
  `${keyPart(thread_id)}/${keyPart(message_id)}`;
export const artifactVersionKey = (artifact_id: string, version: number): string =>
  `${keyPart(artifact_id)}@${version}`;

/** The current ratings on one message, every rater's, in a stable order. */
export function ratingsOn(state: WorkspaceState, thread_id: string, message_id: string) {
  const key = targetKey({ kind: 'message', thread_id, message_id, run_id: null });
  return [...state.feedback.values()]
    .filter((record) => record.rating && record.target_key === key)
    .sort((a, b) => a.seq - b.seq);
}

/**
 * A participant's current feedback of one type on one target (a message's run left out), for
 * feedback a participant replaces: a reviewer's. There is at most one.
 */
export function ownFeedback(
  state: WorkspaceState,
  participant: string,
  feedback_type: string,
  target: Target,
): FeedbackRecord | undefined {
  const key = targetKey(target);
  for (const record of state.feedback.values()) {
    if (
      record.participant === participant &&
      record.feedback_type === feedback_type &&
      record.target_key === key
    ) {
      return record;
    }
  }
  return undefined;
}

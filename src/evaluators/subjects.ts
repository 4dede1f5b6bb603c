import type { MessageRole, RunStatus, RunStep } from '../core/index.js';

export type { EvaluatedKind } from '../core/index.js';

// What an evaluator judges: a snapshot of the target, loaded by the `evaluate` activity
// (docs/evaluators.md describes each kind's for evaluator authors).

export interface SubjectMessage {
  message_id: string;
  thread_id: string;
  run_id: string | null;
  role: MessageRole;
  content: string;
}

/**
 * A whole run (a turn), with the messages it posted and, for a run read from an agent's spans,
 * its model and tool calls (docs/traces.md#steps), each in order.
 */
export interface TurnSubject {
  kind: 'turn';
  run: { run_id: string; thread_id: string; status: RunStatus; trace_ids: string[] };
  messages: SubjectMessage[];
  steps: RunStep[];
}

export interface MessageSubject {
  kind: 'message';
  message: SubjectMessage;
}

export interface ArtifactSubject {
  kind: 'artifact';
  artifact: { artifact_id: string; kind: string; version: number; data: unknown };
}

/** An artifact version as a conversation holds it: the run that produced it, when one did. */
export interface SubjectArtifact {
  artifact_id: string;
  kind: string;
  version: number;
  data: unknown;
  run_id: string | null;
}

/** One entry of a conversation, with its place in the log. */
export type ConversationEntry =
  | { kind: 'message'; seq: number; message: SubjectMessage }
  | { kind: 'artifact'; seq: number; artifact: SubjectArtifact };

export interface ThreadRun {
  run_id: string;
  status: RunStatus;
  trace_ids: string[];
  started_at: string;
}

/**
 * A whole conversation, judged when it went quiet or its host ended it. Each generation judges
 * the thread from its start up to `through_seq`; a thread that resumes is judged again, as a new
 * generation that reads further.
 */
export interface ThreadSubject {
  kind: 'thread';
  thread: { thread_id: string; title: string | null; created_at: string; ended_at: string | null };
  /** The last log seq this generation covers: nothing after it is in `pages()`. */
  through_seq: number;
  /** Its runs, in the order they started. */
  runs: ThreadRun[];
  /**
   * The conversation in log order, read from the store a page at a time: its messages (each
   * naming its run) and the artifact versions its runs produced. A page holds at most 100
   * entries and 1 MiB of content and data (one larger entry is a page of its own), so a long
   * thread is never held whole.
   */
  pages(): AsyncIterable<ConversationEntry[]>;
}

export type Subject = TurnSubject | MessageSubject | ArtifactSubject | ThreadSubject;

import type { MessageRole, RunStatus } from '../core/index.js';

export type { EvaluatedKind } from '../core/index.js';

// What an evaluator judges: a snapshot of the target, loaded by the `evaluate` activity.

export interface SubjectMessage {
  message_id: string;
  thread_id: string;
  run_id: string | null;
  role: MessageRole;
  content: string;
}

/** A whole run (a turn), with the messages it posted, in order. */
export interface TurnSubject {
  kind: 'turn';
  run: { run_id: string; thread_id: string; status: RunStatus; trace_ids: string[] };
  messages: SubjectMessage[];
}

export interface MessageSubject {
  kind: 'message';
  message: SubjectMessage;
}

export interface ArtifactSubject {
  kind: 'artifact';
  artifact: { artifact_id: string; kind: string; version: number; data: unknown };
}

export type Subject = TurnSubject | MessageSubject | ArtifactSubject;

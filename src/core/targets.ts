import { z } from 'zod';
import { Id } from './ids.js';

// What feedback is given on (ADR-0037). Unknown keys are refused and `version` is checked here,
// when the command is parsed, before any rule runs.
export const ArtifactTarget = z.strictObject({
  kind: z.literal('artifact'),
  artifact_id: Id,
  version: z.int().min(1),
});
export const ThreadTarget = z.strictObject({
  kind: z.literal('thread'),
  thread_id: Id,
});
/** A turn is an agent's run, which may span pauses. */
export const TurnTarget = z.strictObject({
  kind: z.literal('turn'),
  run_id: Id,
});
/** Messages are not entities: the target names its thread (checked) and optionally its run. */
export const MessageTarget = z.strictObject({
  kind: z.literal('message'),
  message_id: Id,
  thread_id: Id,
  run_id: Id.nullable().default(null),
});

export const Target = z.discriminatedUnion('kind', [
  ArtifactTarget,
  ThreadTarget,
  TurnTarget,
  MessageTarget,
]);
export type Target = z.output<typeof Target>;
export type TargetKind = Target['kind'];
export const targetKinds: readonly TargetKind[] = Target.options
  .map((option) => option.shape.kind.value)
  .sort();

/** What evaluators judge: a run (turn), a message or an artifact version; never a thread. */
export type EvaluatedKind = Exclude<TargetKind, 'thread'>;
export const evaluatedKinds: readonly EvaluatedKind[] = targetKinds.filter(
  (kind): kind is EvaluatedKind => kind !== 'thread',
);
export type EvaluationTarget = Extract<Target, { kind: EvaluatedKind }>;

/**
 * Ids are the client's and may hold the separators, so each part of a composite key escapes them
 * (and `%` itself): two different pairs of ids never make the same key.
 */
export const keyPart = (id: string): string =>
  id.replace(/[%/@:]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const part = keyPart;

/**
 * A target's identity as one string, for looking feedback up by target. A message's run is left
 * out: the same message is the same target whether or not the client named its run.
 */
export function targetKey(target: Target): string {
  switch (target.kind) {
    case 'artifact':
      return `artifact:${part(target.artifact_id)}@${target.version}`;
    case 'thread':
      return `thread:${part(target.thread_id)}`;
    case 'turn':
      return `turn:${part(target.run_id)}`;
    case 'message':
      return `message:${part(target.thread_id)}/${part(target.message_id)}`;
  }
}

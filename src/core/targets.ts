import { z } from 'zod';
import { Id } from './ids.js';

// What feedback is given on (docs/specification.md#targets). Unknown keys are refused and
// `version` is checked here, when the command is parsed, before any rule runs.
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

/**
 * What evaluators judge: every kind of target. A run (turn), a message or an artifact version
 * when its run ends; a thread when it goes quiet or its host ends it, again each time it resumes.
 */
export type EvaluatedKind = TargetKind;
export const evaluatedKinds: readonly EvaluatedKind[] = targetKinds;
export type EvaluationTarget = Extract<Target, { kind: EvaluatedKind }>;

import type { Target } from './targets.js';

// The ids and keys workflow code builds too. This module imports no zod (types only), so the
// workflow bundle holds none: each cached workflow loads its own copy of every module it
// imports, and zod alone would cost over a megabyte per paused run.

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

/** An evaluator version as rules, plans and the API name it: `{name}@{version}`. */
export const evaluatorId = ({ name, version }: { name: string; version: string }): string =>
  `${name}@${version}`;

/** An evaluator version's participant id, `evaluator:{name}@{version}`: the one builder of it. */
export const evaluatorParticipant = (ref: { name: string; version: string }): string =>
  `evaluator:${evaluatorId(ref)}`;

/** The evaluator version (`{name}@{version}`) an evaluator's participant id names. */
export const evaluatorIdOf = (participant: string): string =>
  participant.replace(/^evaluator:/, '');

/**
 * A thread's generation: judged once it went quiet (or ended), named by the last seq of the log
 * it covers, so every generation of a thread has a name of its own and they order by it.
 */
export const threadGeneration = (throughSeq: number): string => `thread:${throughSeq}`;

/** The seq a thread's generation covers through; null for any other generation. */
export function threadGenerationSeq(generation: string): number | null {
  const match = /^thread:(\d+)$/.exec(generation);
  return match ? Number(match[1]) : null;
}

// A tuned judge version as data: what a judge family answers with when it runs this version, and
// where every example came from. Once recorded (`record_judge_version`) it never changes; the
// command's decision and src/tuning's `parseJudgeVersion` check it by the same rules.

import { z } from 'zod';
import { Actor } from './actors.js';
import { Id } from './ids.js';
import { Json, type JsonValue } from './json-values.js';
import { targetKey } from './keys.js';
import { EVALUATOR_ID_PART } from './rules.js';
import { type EvaluatedKind, Target } from './targets.js';

const VersionPart = z.string().regex(EVALUATOR_ID_PART, {
  error: "a judge's name or version is letters, digits, '_', '.' or '-'",
});

const ReviewerProvenance = z.strictObject({
  raterId: Id,
  label: z.string().min(1),
  note: z.string().nullable(),
});

/** A few-shot example with its provenance. */
export const JudgeExample = z.strictObject({
  target: Target,
  /** What the judge reads of the target, as the prompt shows it. */
  text: z.string(),
  /** The verdict the example teaches, in the judge's feedback type's shape. */
  expectedVerdict: z.record(z.string(), Json as z.ZodType<JsonValue>),
  reviewersLabel: z.string().min(1),
  /** What the judge's base version said: an example where it differs was a disagreement. */
  judgeLabel: z.string().min(1),
  reviewers: z.array(ReviewerProvenance).min(1),
});
export type JudgeExample = z.output<typeof JudgeExample>;

/** A version as it is recorded: who recorded it and when are the log's envelope's. */
export const JudgeVersionData = z.strictObject({
  /** The judge family (`llm_judge`, or one an app declares). */
  judge: VersionPart,
  version: VersionPart,
  rubric: z.string(),
  model: z.string().min(1),
  /** The feedback type the version answers with. */
  feedbackType: Id,
  examples: z.array(JudgeExample),
  /** The version the examples were chosen to improve. */
  tunedFrom: VersionPart,
  /** The targets the backtest judges: never an example. */
  heldOut: z.array(Target),
});
export type JudgeVersionData = z.output<typeof JudgeVersionData>;

export const JudgeVersion = JudgeVersionData.extend({
  recordedBy: Actor,
  recordedAt: z.iso.datetime(),
});
export type JudgeVersion = z.output<typeof JudgeVersion>;

/** A version as a workspace's view holds it: with the seq of the event that recorded it. */
export interface StoredJudgeVersion extends JudgeVersion {
  seq: number;
  /** The kinds it judges, as its event recorded them (absent from versions recorded before). */
  targets?: EvaluatedKind[];
}

/** A judge version's id, as rules and the evaluator lookup name it: `{judge}@{version}`. */
export const judgeVersionId = (version: Pick<JudgeVersionData, 'judge' | 'version'>): string =>
  `${version.judge}@${version.version}`;

/** What is wrong with a tuned judge version, one problem per finding. */
export type JudgeVersionProblemCode =
  | 'shape'
  | 'bad_version'
  | 'empty_rubric'
  | 'tuned_from_itself'
  | 'example_held_out'
  | 'duplicate_example';

export interface JudgeVersionProblem {
  readonly code: JudgeVersionProblemCode;
  readonly message: string;
}

/**
 * The rules a well-shaped version must keep: a rubric that is not blank, a base version other
 * than itself, no example held out, no example given twice.
 */
export function judgeVersionProblems(
  version: Pick<JudgeVersionData, 'rubric' | 'version' | 'tunedFrom' | 'examples' | 'heldOut'>,
): JudgeVersionProblem[] {
  const problems: JudgeVersionProblem[] = [];
  if (version.rubric.trim() === '') {
    problems.push({ code: 'empty_rubric', message: 'the rubric is empty' });
  }
  if (version.version === version.tunedFrom) {
    problems.push({
      code: 'tuned_from_itself',
      message: `version ${version.version} cannot be tuned from itself`,
    });
  }
  const heldOut = new Set(version.heldOut.map(targetKey));
  const seen = new Set<string>();
  for (const example of version.examples) {
    const key = targetKey(example.target);
    if (heldOut.has(key)) {
      problems.push({ code: 'example_held_out', message: `example ${key} is a held-out target` });
    }
    if (seen.has(key)) {
      problems.push({ code: 'duplicate_example', message: `example ${key} is given twice` });
    }
    seen.add(key);
  }
  return problems;
}

// A tuned judge version as data: what a judge family answers with when it runs this version, and
// where every example came from. Once recorded it never changes; `parseJudgeVersion` is the one
// gate it passes, with a problem per finding.

import { z } from 'zod';
import {
  Actor,
  EVALUATOR_ID_PART,
  Id,
  Json,
  type JsonValue,
  Target,
  targetKey,
} from '../core/index.js';
import { InvalidJudgeVersionError, type JudgeVersionProblem } from './errors.js';

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

export const JudgeVersion = z.strictObject({
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
  recordedBy: Actor,
  recordedAt: z.iso.datetime(),
});
export type JudgeVersion = z.output<typeof JudgeVersion>;

/**
 * A valid version, or every problem with it.
 * @throws InvalidJudgeVersionError listing the shape's problems, or else the rules': a version
 * string that is no id part, an empty rubric, a version tuned from itself, an example that is a
 * held-out target, an example given twice.
 */
export function parseJudgeVersion(input: unknown): JudgeVersion {
  const parsed = JudgeVersion.safeParse(input);
  if (!parsed.success) {
    throw new InvalidJudgeVersionError(
      parsed.error.issues.map((issue) => ({
        code: ['version', 'tunedFrom'].includes(String(issue.path[0])) ? 'bad_version' : 'shape',
        message: `${issue.path.join('.') || '(root)'}: ${issue.message}`,
      })),
    );
  }
  const problems = ruleProblems(parsed.data);
  if (problems.length > 0) throw new InvalidJudgeVersionError(problems);
  return parsed.data;
}

function ruleProblems(version: JudgeVersion): JudgeVersionProblem[] {
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
      problems.push({
        code: 'example_held_out',
        message: `example ${key} is a held-out target`,
      });
    }
    if (seen.has(key)) {
      problems.push({ code: 'duplicate_example', message: `example ${key} is given twice` });
    }
    seen.add(key);
  }
  return problems;
}

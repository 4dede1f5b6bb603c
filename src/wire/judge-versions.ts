import { z } from 'zod';
import { judgeVersionId, type StoredJudgeVersion } from '../core/index.js';

// An LLM judge's versions as the API answers and the CLI prints them: those the app declares in
// code beside those recorded as data in the workspace (tuned from reviewers' verdicts).

export const WireJudgeVersion = z.object({
  /** `judge@version`, as rules name it. */
  id: z.string(),
  source: z.enum(['declared', 'recorded']),
  model: z.string(),
  feedbackType: z.string(),
  /** The version it was tuned from, `judge@version`; null for one declared in code. */
  tunedFrom: z.string().nullable(),
  examples: z.int(),
  heldOut: z.int(),
  recordedAt: z.string().nullable(),
});
export type WireJudgeVersion = z.output<typeof WireJudgeVersion>;

/** What the list reads of an evaluator the app declares (an `Evaluator` is one). */
export interface DeclaredEvaluator {
  readonly id: string;
  readonly feedbackType: { readonly name: string };
  /** Present on an LLM judge whose family runs versions recorded as data. */
  readonly judge?: { readonly model: string };
}

/** The declared LLM judges' versions (those with a family), then the workspace's recorded ones. */
export function wireJudgeVersions(
  declared: readonly DeclaredEvaluator[],
  recorded: readonly StoredJudgeVersion[],
): WireJudgeVersion[] {
  return [...declared.flatMap(wireDeclaredJudge), ...recorded.map(wireRecordedJudge)];
}

const wireDeclaredJudge = (evaluator: DeclaredEvaluator): WireJudgeVersion[] =>
  evaluator.judge === undefined
    ? []
    : [
        {
          id: evaluator.id,
          source: 'declared',
          model: evaluator.judge.model,
          feedbackType: evaluator.feedbackType.name,
          tunedFrom: null,
          examples: 0,
          heldOut: 0,
          recordedAt: null,
        },
      ];

const wireRecordedJudge = (version: StoredJudgeVersion): WireJudgeVersion => ({
  id: judgeVersionId(version),
  source: 'recorded',
  model: version.model,
  feedbackType: version.feedbackType,
  tunedFrom: judgeVersionId({ judge: version.judge, version: version.tunedFrom }),
  examples: version.examples.length,
  heldOut: version.heldOut.length,
  recordedAt: version.recordedAt,
});

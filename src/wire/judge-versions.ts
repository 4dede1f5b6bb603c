import { z } from 'zod';
import {
  type JudgeVersionData,
  judgeVersionId,
  participantOf,
  type StoredJudgeVersion,
  targetKey,
} from '../core/index.js';

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

/** A recorded version whole: its rubric, each example with its provenance, its held-out targets. */
export const WireRecordedJudge = z.object({
  id: z.string(),
  model: z.string(),
  feedbackType: z.string(),
  tunedFrom: z.string(),
  rubric: z.string(),
  /** Who recorded it (`system:cli`, `system:admin`), and when. */
  recordedBy: z.string(),
  recordedAt: z.string(),
  examples: z.array(
    z.object({
      /** The example's target, by its key (`message:t1/m1`). */
      target: z.string(),
      /** What the judge reads of it, as the prompt shows it. */
      text: z.string(),
      reviewersLabel: z.string(),
      judgeLabel: z.string(),
      reviewers: z.array(
        z.object({ raterId: z.string(), label: z.string(), note: z.string().nullable() }),
      ),
    }),
  ),
  /** The targets its backtest judges, by key: never an example. */
  heldOut: z.array(z.string()),
});
export type WireRecordedJudge = z.output<typeof WireRecordedJudge>;

export const wireRecordedVersion = (version: StoredJudgeVersion): WireRecordedJudge => ({
  id: judgeVersionId(version),
  model: version.model,
  feedbackType: version.feedbackType,
  tunedFrom: judgeVersionId({ judge: version.judge, version: version.tunedFrom }),
  rubric: version.rubric,
  recordedBy: participantOf(version.recordedBy),
  recordedAt: version.recordedAt,
  examples: version.examples.map((example) => ({
    target: targetKey(example.target),
    text: example.text,
    reviewersLabel: example.reviewersLabel,
    judgeLabel: example.judgeLabel,
    reviewers: example.reviewers.map((reviewer) => ({ ...reviewer })),
  })),
  heldOut: version.heldOut.map(targetKey),
});

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

/** A candidate tuned and recorded, as the API answers and `judges tune --json` prints it. */
export const WireTuned = z.object({
  workspace: z.string(),
  /** The seq of the event that recorded it. */
  seq: z.int(),
  candidate: z.string(),
  tunedFrom: z.string(),
  split: z.object({ reviewed: z.int(), training: z.int(), heldOut: z.int() }),
  /** Each example by its target's key, with the reviewers' and the base judge's labels. */
  examples: z.array(
    z.object({ target: z.string(), reviewersLabel: z.string(), judgeLabel: z.string() }),
  ),
  disagreements: z.object({ inTraining: z.int(), chosen: z.int() }),
  /** The examples kept from a recorded base, first among `examples`. */
  kept: z.int(),
});
export type WireTuned = z.output<typeof WireTuned>;

/** What the split and the choice of examples tell of a tuning (src/tuning's). */
export interface TuningFigures {
  readonly split: { readonly training: readonly unknown[]; readonly heldOut: readonly unknown[] };
  readonly choice: { readonly disagreements: number; readonly disagreementsChosen: number };
  readonly kept: number;
}

export function wireTuned(
  workspace: string,
  seq: number,
  version: JudgeVersionData,
  { split, choice, kept }: TuningFigures,
): WireTuned {
  return {
    workspace,
    seq,
    candidate: judgeVersionId(version),
    tunedFrom: judgeVersionId({ judge: version.judge, version: version.tunedFrom }),
    split: {
      reviewed: split.training.length + split.heldOut.length,
      training: split.training.length,
      heldOut: split.heldOut.length,
    },
    examples: version.examples.map((example) => ({
      target: targetKey(example.target),
      reviewersLabel: example.reviewersLabel,
      judgeLabel: example.judgeLabel,
    })),
    disagreements: { inTraining: choice.disagreements, chosen: choice.disagreementsChosen },
    kept,
  };
}

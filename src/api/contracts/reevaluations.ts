import { z } from 'zod';
import { EvaluatorId, RunStatus } from '../../core/index.js';
import { backfillKinds } from '../../store/index.js';
import { WireTarget } from '../../wire/entities.js';
import { batchPauseReasons } from '../../workflow-clients/index.js';
import { OPERATORS } from './callers.js';
import { defineRoutes } from './contract.js';

// Batch re-evaluation with pinned evaluator versions: of artifact versions, or a backfill of
// runs (turns), messages or threads; its preview (count, cost, duration) and its budget.

const ArtifactSelector = z.strictObject({
  artifactIds: z.array(z.string().min(1)).optional(),
  kind: z.string().min(1).optional(),
  createdFrom: z.iso.datetime({ offset: true }).optional(),
  createdTo: z.iso.datetime({ offset: true }).optional(),
  latestOnly: z.boolean().optional(),
});
export const BackfillSelection = z.strictObject({
  kind: z.enum(backfillKinds),
  threadIds: z.array(z.string().min(1)).optional(),
  /** The run ended at or after `endedFrom` and before `endedTo` (a thread: any of its runs). */
  endedFrom: z.iso.datetime({ offset: true }).optional(),
  endedTo: z.iso.datetime({ offset: true }).optional(),
  statuses: z.array(RunStatus).optional(),
  /** The share judged, deterministic: the same targets in the preview and the batch. */
  sampleFraction: z.number().gt(0).max(1).optional(),
  limit: z.int().min(1).optional(),
  /** Leave out the pairs each version has recorded a verdict on, in any generation. */
  unjudgedOnly: z.boolean().optional(),
  /** Only these targets, all of `kind`: a judge version's held-out targets, say. */
  targets: z.array(WireTarget).optional(),
});
const Selection = {
  /** Artifact versions (a body names this or `selection`). */
  selector: ArtifactSelector.optional(),
  selection: BackfillSelection.optional(),
  evaluators: z.array(EvaluatorId).min(1),
  concurrency: z.int().min(1).max(64).optional(),
};
const oneSelection = (body: { selector?: unknown; selection?: unknown }) =>
  (body.selector === undefined) !== (body.selection === undefined);
const oneSelectionError = {
  message: 'name artifact versions (selector) or a backfill (selection), one of them',
};
export const StartReevaluationBody = z
  .strictObject({ ...Selection, maxCostUsd: z.number().positive().finite().optional() })
  .refine(oneSelection, oneSelectionError);
export const PreviewReevaluationBody = z
  .strictObject(Selection)
  .refine(oneSelection, oneSelectionError);
const Usd = z.number().nullable();
const DurationBasis = z.enum(['recorded', 'default']);
export const ReevaluationPreview = z.object({
  targets: z.int(),
  /** Null: not known (no measured mean and no declared estimate), never a made-up figure. */
  costUsd: Usd,
  durationMs: z.number(),
  /** `default`: a version's attempt time is not recorded in the workspace, and assumed. */
  durationBasis: DurationBasis,
  versions: z.array(
    z.object({
      evaluator: z.string(),
      targets: z.int(),
      costPerEvaluationUsd: Usd,
      costUsd: Usd,
      /**
       * Whence its cost: its own mean recorded in the workspace, its base's calls (a judge
       * version recorded as data, before its own), its declared estimate, or none (`unknown`).
       */
      costBasis: z.enum(['recorded', 'base', 'declared', 'unknown']),
      /** Null: no attempt of it recorded in the workspace. */
      meanAttemptMs: z.number().nullable(),
      /** Attempts `meanAttemptMs` is measured over. */
      recordedAttempts: z.int(),
      durationBasis: DurationBasis,
      durationMs: z.number(),
    }),
  ),
});
export const SetReevaluationBudgetBody = z.strictObject({
  maxCostUsd: z.number().positive().finite(),
});
export const StartReevaluationReply = z.object({ id: z.string() });
export const ReevaluationProgress = z.object({
  total: z.int(),
  done: z.int(),
  recorded: z.int(),
  sampledOut: z.int(),
  failed: z.int(),
  skipped: z.int(),
  paused: z.boolean(),
  /** Why it is paused (null while it runs). */
  pausedBy: z.enum(batchPauseReasons).nullable(),
  /** Recorded under the batch's generation, as last read (0 for a batch without a budget). */
  spentUsd: z.number(),
  maxCostUsd: z.number().nullable(),
  cancelled: z.boolean(),
  /** The batch has completed: every pair settled, or cancelled and its last evaluations done. */
  finished: z.boolean(),
});

const tags = ['reevaluations'];
const BatchParams = z.object({ id: z.string().min(1) });

/** Pause, resume or cancel: a signal to the batch, answered with its progress. */
const signal = <const Action extends 'pause' | 'resume' | 'cancel'>(action: Action) => ({
  method: 'POST' as const,
  path: `/v1/reevaluations/:id/${action}` as const,
  allow: OPERATORS,
  tags,
  summary: `${action[0]?.toUpperCase()}${action.slice(1)} a re-evaluation`,
  params: BatchParams,
  answers: { 200: ReevaluationProgress },
});

export const reevaluationRoutes = defineRoutes({
  previewReevaluation: {
    method: 'POST',
    path: '/v1/reevaluations/preview',
    allow: OPERATORS,
    tags,
    summary: 'What a re-evaluation would judge, cost and take, without starting it',
    body: PreviewReevaluationBody,
    answers: { 200: ReevaluationPreview },
  },
  startReevaluation: {
    method: 'POST',
    path: '/v1/reevaluations',
    allow: OPERATORS,
    tags,
    summary:
      'Judge a selection of artifact versions, runs, messages or threads again, as a new generation of verdicts',
    body: StartReevaluationBody,
    answers: { 201: StartReevaluationReply },
  },
  reevaluation: {
    method: 'GET',
    path: '/v1/reevaluations/:id',
    allow: OPERATORS,
    tags,
    summary: "A re-evaluation's progress",
    params: BatchParams,
    answers: { 200: ReevaluationProgress },
  },
  setReevaluationBudget: {
    method: 'POST',
    path: '/v1/reevaluations/:id/budget',
    allow: OPERATORS,
    tags,
    summary:
      "Set a re-evaluation's budget; one paused by its budget resumes when it is above the spend",
    params: BatchParams,
    body: SetReevaluationBudgetBody,
    answers: { 200: ReevaluationProgress },
  },
  pauseReevaluation: signal('pause'),
  resumeReevaluation: signal('resume'),
  cancelReevaluation: signal('cancel'),
});

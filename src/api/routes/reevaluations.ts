import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { EvaluatorId, notFound, RunStatus, usdOf } from '../../core/index.js';
import { evaluatorTaskQueues } from '../../evaluators/index.js';
import { backfillKinds } from '../../store/index.js';
import { targetOf, WireTarget } from '../../wire/entities.js';
import {
  batchPauseReasons,
  InvalidRequestError,
  previewReevaluation,
  type ReevaluateProgress,
  ReevaluationClient,
  wirePreview,
} from '../../workflow-clients/index.js';
import { OPERATORS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { refuse } from '../errors.js';
import { bindRoutes, type RouteCall } from './bind-routes.js';
import { callerOf } from './context.js';

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

// Started, previewed, read, budgeted, paused, resumed and cancelled through the batch's workflow.

/** What a signal's handler reads of its call. */
type SignalCall = Pick<RouteCall<BatchContract>, 'params' | 'request'>;
type BatchContract = (typeof reevaluationRoutes)['reevaluation'];

/** A backfill as the API takes it, with its own targets (if any) as the store names them. */
function backfillOf({ targets, ...selection }: z.output<typeof BackfillSelection>) {
  return { ...selection, ...(targets ? { targets: targets.map(targetOf) } : {}) };
}

export const registerReevaluations = bindRoutes(reevaluationRoutes, (deps) => {
  const batches = new ReevaluationClient(
    deps.temporal.client,
    deps.store,
    deps.temporal.taskQueue,
    deps.app.evaluators,
    evaluatorTaskQueues(deps.temporal.taskQueue, deps.app.evaluatorLimits),
    deps.store.judgeVersions,
  );
  const missing = (id: string) => refuse(notFound('reevaluation', id));

  /** The batch's progress, and whether its workflow has completed; null for no such batch. */
  const progressOf = async (workspaceId: string, id: string) => {
    // Asked first, so that a batch seen finished answers its final progress.
    const finished = await batches.finished(workspaceId, id);
    if (finished === null) return null;
    const progress = await batches.progress(workspaceId, id);
    return progress === null ? null : { ...wireOf(progress), finished };
  };
  const invalid = (error: unknown) => {
    if (error instanceof InvalidRequestError) {
      return refuse({ type: 'validation_failed', message: error.message, errors: [] });
    }
    return error;
  };

  /** Pause, resume or cancel the batch, then answer its progress. */
  const signal =
    (action: 'pause' | 'resume' | 'cancel') =>
    async ({ params, request }: SignalCall) => {
      const { workspaceId } = callerOf(request);
      if ((await batches.progress(workspaceId, params.id)) === null) throw missing(params.id);
      try {
        await batches[action](workspaceId, params.id);
      } catch (error) {
        // Temporal refuses a signal to a batch that has completed.
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        throw refuse({
          type: 'invalid_state',
          message: `reevaluation ${params.id} has finished`,
        });
      }
      return (await progressOf(workspaceId, params.id)) ?? Promise.reject(missing(params.id));
    };

  return {
    previewReevaluation: async ({ body, request }) => {
      const { selector, selection, evaluators, concurrency } = body;
      try {
        const preview = await previewReevaluation(
          {
            store: deps.store,
            evaluators: deps.app.evaluators,
            limits: deps.app.evaluatorLimits,
            pricing: deps.app.pricing,
          },
          callerOf(request).workspaceId,
          {
            evaluators,
            ...(selector ? { selector } : {}),
            ...(selection ? { selection: backfillOf(selection) } : {}),
            ...(concurrency ? { concurrency } : {}),
          },
        );
        return wirePreview(preview);
      } catch (error) {
        throw invalid(error);
      }
    },
    startReevaluation: async ({ body, request }) => {
      const { selector, selection, evaluators, concurrency, maxCostUsd } = body;
      try {
        const { batchId } = await batches.start(callerOf(request).workspaceId, {
          ...(selector ? { selector } : {}),
          ...(selection ? { selection: backfillOf(selection) } : {}),
          evaluators,
          ...(concurrency ? { concurrency } : {}),
          ...(maxCostUsd !== undefined ? { maxCostUsd } : {}),
          // A retried request with the same Idempotency-Key names the same batch.
          ...(request.commandId ? { batchId: request.commandId.replaceAll(':', '-') } : {}),
        });
        return { id: batchId };
      } catch (error) {
        throw invalid(error);
      }
    },
    reevaluation: async ({ params, request }) => {
      const progress = await progressOf(callerOf(request).workspaceId, params.id);
      if (progress === null) throw missing(params.id);
      return progress;
    },
    setReevaluationBudget: async ({ params, body, request }) => {
      const { workspaceId } = callerOf(request);
      const progress = await batches.progress(workspaceId, params.id);
      if (progress === null) throw missing(params.id);
      if (progress.maxCostNanos == null) {
        throw refuse({
          type: 'invalid_state',
          message: `reevaluation ${params.id} was started without a budget`,
        });
      }
      try {
        await batches.setBudget(workspaceId, params.id, body.maxCostUsd);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw invalid(error);
        throw refuse({
          type: 'invalid_state',
          message: `reevaluation ${params.id} has finished`,
        });
      }
      return (await progressOf(workspaceId, params.id)) ?? Promise.reject(missing(params.id));
    },
    pauseReevaluation: signal('pause'),
    resumeReevaluation: signal('resume'),
    cancelReevaluation: signal('cancel'),
  };
});

/** The workflow's progress on the wire: money in USD, the fields of older batches filled in. */
function wireOf(progress: ReevaluateProgress) {
  const { spentNanos, maxCostNanos, pausedBy, inFlight: _inFlight, ...counts } = progress;
  return {
    ...counts,
    pausedBy: pausedBy ?? (progress.paused ? 'request' : null),
    spentUsd: usdOf(spentNanos ?? 0),
    maxCostUsd: maxCostNanos == null ? null : usdOf(maxCostNanos),
  };
}

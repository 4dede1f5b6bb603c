import { WorkflowNotFoundError } from '@temporalio/client';
import type { z } from 'zod';
import { notFound, usdOf } from '../../core/index.js';
import { evaluatorTaskQueues } from '../../evaluators/index.js';
import { targetOf } from '../../wire/entities.js';
import {
  InvalidRequestError,
  previewReevaluation,
  type ReevaluateProgress,
  ReevaluationClient,
  wirePreview,
} from '../../workflow-clients/index.js';
import { type BackfillSelection, reevaluationRoutes } from '../contracts/reevaluations.js';
import { refuse } from '../errors.js';
import { bindRoutes, type RouteCall } from './bind-routes.js';
import { callerOf } from './context.js';

// Batch re-evaluation (contracts/reevaluations.ts): started, previewed, read, budgeted, paused,
// resumed and cancelled through the batch's workflow.

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

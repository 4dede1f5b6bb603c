import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { EvaluatorId, notFound } from '../../core/index.js';
import { evaluatorTaskQueues } from '../../evaluators/index.js';
import { InvalidRequestError, ReevaluationClient } from '../../workflow-clients/index.js';
import { refusalResponses, refuse } from '../errors.js';
import { callerOf, type Register } from './context.js';

// Batch re-evaluation of artifact versions with pinned evaluator versions.

// The bodies and answers, named so that the HTTP client's types are these very schemas.
export const StartReevaluationBody = z.strictObject({
  selector: z.strictObject({
    artifactIds: z.array(z.string().min(1)).optional(),
    kind: z.string().min(1).optional(),
    createdFrom: z.iso.datetime({ offset: true }).optional(),
    createdTo: z.iso.datetime({ offset: true }).optional(),
    latestOnly: z.boolean().optional(),
  }),
  evaluators: z.array(EvaluatorId).min(1),
  concurrency: z.int().min(1).max(64).optional(),
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
  cancelled: z.boolean(),
  /** The batch has completed: every pair settled, or cancelled and its last evaluations done. */
  finished: z.boolean(),
});

const control = ['system', 'admin'] as const;

export const registerReevaluations: Register = (api, deps) => {
  const batches = new ReevaluationClient(
    deps.temporal.client,
    deps.store,
    deps.temporal.taskQueue,
    deps.app.evaluators,
    evaluatorTaskQueues(deps.temporal.taskQueue, deps.app.evaluatorLimits),
  );
  const missing = (id: string) => refuse(notFound('reevaluation', id));

  /** The batch's progress, and whether its workflow has completed; null for no such batch. */
  const progressOf = async (workspaceId: string, id: string) => {
    // Asked first, so that a batch seen finished answers its final progress.
    const finished = await batches.finished(workspaceId, id);
    if (finished === null) return null;
    const progress = await batches.progress(workspaceId, id);
    return progress === null ? null : { ...progress, finished };
  };

  api.post('/v1/reevaluations', {
    config: { allow: control },
    schema: {
      tags: ['reevaluations'],
      summary: 'Judge a selection of artifact versions again, as a new generation of verdicts',
      body: StartReevaluationBody,
      response: { 201: StartReevaluationReply, ...refusalResponses },
    },
    handler: async (request, reply) => {
      const { selector, evaluators, concurrency } = request.body;
      try {
        const { batchId } = await batches.start(callerOf(request).workspaceId, {
          selector,
          evaluators,
          ...(concurrency ? { concurrency } : {}),
          // A retried request with the same Idempotency-Key names the same batch.
          ...(request.commandId ? { batchId: request.commandId.replaceAll(':', '-') } : {}),
        });
        return reply.code(201).send({ id: batchId });
      } catch (error) {
        if (error instanceof InvalidRequestError) {
          throw refuse({ type: 'validation_failed', message: error.message, errors: [] });
        }
        throw error;
      }
    },
  });

  api.get('/v1/reevaluations/:id', {
    config: { allow: control },
    schema: {
      tags: ['reevaluations'],
      summary: "A re-evaluation's progress",
      params: z.object({ id: z.string().min(1) }),
      response: { 200: ReevaluationProgress, ...refusalResponses },
    },
    handler: async (request) => {
      const progress = await progressOf(callerOf(request).workspaceId, request.params.id);
      if (progress === null) throw missing(request.params.id);
      return progress;
    },
  });

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    api.post(`/v1/reevaluations/:id/${action}`, {
      config: { allow: control },
      schema: {
        tags: ['reevaluations'],
        summary: `${action[0]?.toUpperCase()}${action.slice(1)} a re-evaluation`,
        params: z.object({ id: z.string().min(1) }),
        response: { 200: ReevaluationProgress, ...refusalResponses },
      },
      handler: async (request) => {
        const { workspaceId } = callerOf(request);
        if ((await batches.progress(workspaceId, request.params.id)) === null)
          throw missing(request.params.id);
        try {
          await batches[action](workspaceId, request.params.id);
        } catch (error) {
          // Temporal refuses a signal to a batch that has completed.
          if (!(error instanceof WorkflowNotFoundError)) throw error;
          throw refuse({
            type: 'invalid_state',
            message: `reevaluation ${request.params.id} has finished`,
          });
        }
        return (
          (await progressOf(workspaceId, request.params.id)) ??
          Promise.reject(missing(request.params.id))
        );
      },
    });
  }
};

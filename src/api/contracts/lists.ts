import { z } from 'zod';
import { evaluationStates } from '../../core/index.js';
import { WireRun, WireSteps, WireThread } from '../../wire/entities.js';
import { READERS } from './callers.js';
import { defineRoutes } from './contract.js';

// Lists of what the host reported: threads by id, runs newest first with each one's evaluation
// summary, a page at a time.

const tags = ['reading'];
const instant = z.iso.datetime({ offset: true });
const limit = z.coerce.number().int().min(1).max(1000).default(100);
const cursor = z.string().min(1).optional();

export const ThreadsQuery = z.object({ cursor, limit });
export const ThreadsReply = z.object({
  threads: z.array(WireThread),
  nextCursor: z.string().nullable(),
});

/** How many of a run's (target, evaluator version) pairs stand in each ledger state. */
export const EvaluationSummary = z.object(
  Object.fromEntries(evaluationStates.map((state) => [state, z.int()])) as Record<
    (typeof evaluationStates)[number],
    z.ZodInt
  >,
);
const partialSteps = {
  steps: WireSteps.steps.optional(),
  stepsOmitted: WireSteps.stepsOmitted.optional(),
};
export const RunsQuery = z.object({
  threadId: z.string().min(1).optional(),
  traceId: z.string().min(1).optional().describe("only the runs of this trace (an OTel trace's)"),
  status: WireRun.shape.status.optional(),
  startedFrom: instant.optional(),
  startedBefore: instant.optional(),
  endedFrom: instant.optional(),
  endedBefore: instant.optional(),
  cursor,
  limit,
});
export const RunsReply = z.object({
  runs: z.array(
    z.object({
      run: WireRun,
      evaluations: EvaluationSummary,
      /** With `traceId` only: each run's model and tool calls (docs/traces.md#steps). */
      ...partialSteps,
    }),
  ),
  nextCursor: z.string().nullable(),
});

export const listRoutes = defineRoutes({
  threads: {
    method: 'GET',
    path: '/v1/threads',
    allow: READERS,
    tags: tags,
    summary: 'The threads, by id, a page at a time',
    query: ThreadsQuery,
    answers: { 200: ThreadsReply },
  },
  runs: {
    method: 'GET',
    path: '/v1/runs',
    allow: READERS,
    tags: tags,
    summary: 'The runs, newest first, with how their evaluation stands, a page at a time',
    description:
      'Filters combine: a thread, a trace, a status, a window on the start and one on the end (an ended ' +
      'run only). `evaluations` counts the run’s own (target, evaluator version) pairs in each ' +
      'ledger state; GET /v1/runs/{runId} lists them. With `traceId`, each run also lists its ' +
      'steps: the model and tool calls read from its spans.',
    query: RunsQuery,
    answers: { 200: RunsReply },
  },
});

import { z } from 'zod';
import { evaluationStates } from '../../core/index.js';
import type { RunListKey } from '../../store/index.js';
import { WireRun, WireSteps, WireThread, wireRun, wireThread } from '../../wire/entities.js';
import { evaluationSummary, evaluationsOfRuns } from '../../wire/run-evaluations.js';
import { READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { httpOnly } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';
import { runStepsOf } from './run-steps.js';

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

// A cursor is opaque: the last item of the page, encoded.

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decode<T>(text: string | undefined, schema: z.ZodType<T>): T | undefined {
  if (text === undefined) return undefined;
  try {
    return schema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw httpOnly('bad_request', 'cursor is not one this API gave: pass nextCursor as given');
  }
}

const ThreadKey = z.string().min(1);
const RunKey: z.ZodType<RunListKey> = z.strictObject({
  started_at: z.string().min(1),
  run_id: z.string().min(1),
});
/** An instant as the store keeps it (UTC, milliseconds), so comparisons are of like strings. */
const stored = (value: string | undefined) =>
  value === undefined ? undefined : new Date(value).toISOString();

export const registerLists = bindRoutes(listRoutes, {
  threads: async ({ query, request, deps }) => {
    const { limit } = query;
    const after = decode(query.cursor, ThreadKey);
    const threads = await deps.store.threads(callerOf(request).workspaceId, {
      limit: limit + 1,
      ...(after !== undefined ? { after } : {}),
    });
    const page = threads.slice(0, limit);
    const last = page.at(-1);
    return {
      threads: page.map(wireThread),
      nextCursor: threads.length > limit && last ? encode(last.thread_id) : null,
    };
  },

  runs: async ({ query, request, deps }) => {
    const { workspaceId } = callerOf(request);
    const q = query;
    const after = decode(q.cursor, RunKey);
    const filters = {
      thread_id: q.threadId,
      trace_id: q.traceId,
      status: q.status,
      started_from: stored(q.startedFrom),
      started_before: stored(q.startedBefore),
      ended_from: stored(q.endedFrom),
      ended_before: stored(q.endedBefore),
      after,
    };
    const runs = await deps.store.runs(workspaceId, {
      ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined)),
      limit: q.limit + 1,
    });
    const page = runs.slice(0, q.limit);
    const evaluations = await evaluationsOfRuns(
      deps.store,
      workspaceId,
      page.map((run) => run.run_id),
    );
    const last = page.at(-1);
    return {
      runs: await Promise.all(
        page.map(async (run) => ({
          run: wireRun(run),
          evaluations: evaluationSummary(evaluations.get(run.run_id) ?? []),
          // A trace's runs are few, and a reader of one wants what they did.
          ...(q.traceId === undefined ? {} : await runStepsOf(deps, workspaceId, run)),
        })),
      ),
      nextCursor:
        runs.length > q.limit && last
          ? encode({ started_at: last.started_at, run_id: last.run_id })
          : null,
    };
  },
});

import { z } from 'zod';
import { type EvaluationTarget, evaluationStates, notFound, targetKey } from '../../core/index.js';
import {
  SourceName,
  sourceOf,
  WireRun,
  WireSteps,
  WireThread,
  wireRun,
  wireThread,
} from '../../wire/entities.js';
import {
  byGeneration,
  LedgerEntry,
  ledgerEntries,
  runOfTarget,
} from '../../wire/ledger-entries.js';
import { evaluationsOfRuns } from '../../wire/run-evaluations.js';
import { RunVerdict, runVerdicts } from '../../wire/run-verdicts.js';
import { ScoreSummaryGroup, summarizeScores } from '../../wire/score-summary.js';
import { READERS } from '../contracts/callers.js';
import { defineRoutes } from '../contracts/contract.js';
import { RunParams, ThreadParams } from '../contracts/params.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';
import { runStepsOf } from './run-steps.js';

// Reading back: a run with its evaluation ledger, the ledger in pages, and a summary of scores
// grouped so that no two populations are ever merged (docs/specification.md#score-sources).

export { LedgerEntry };
/**
 * A run, its ledger, the verdicts given on it (its turn, messages and artifact versions), and its
 * model and tool calls when it came from an agent's spans.
 */
export const RunReply = z.object({
  run: WireRun,
  evaluations: z.array(LedgerEntry),
  verdicts: z.array(RunVerdict),
  ...WireSteps,
});
export const ThreadReply = z.object({ thread: WireThread, evaluations: z.array(LedgerEntry) });
export const LedgerQuery = z.object({
  runId: z.string().min(1).optional(),
  /** Only the thread's own evaluations: its generations, each evaluator's verdict on the whole. */
  threadId: z.string().min(1).optional(),
  state: z.enum(evaluationStates).optional(),
  cursor: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const LedgerReply = z.object({
  entries: z.array(LedgerEntry),
  nextCursor: z.string().nullable(),
});
export const ScoresSummaryQuery = z.object({
  source: SourceName.optional(),
  name: z.string().min(1).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** `true`: shadow versions' verdicts too, in groups of their own (`shadow: true`). */
  includeShadow: z.stringbool().default(false),
  /** `day`: each group split by the UTC day its feedback was last given on. */
  per: z.enum(['day']).optional(),
});
export const ScoresSummaryReply = z.object({ groups: z.array(ScoreSummaryGroup) });

export const readingRoutes = defineRoutes({
  run: {
    method: 'GET',
    path: '/v1/runs/:runId',
    allow: READERS,
    tags: ['reading'],
    summary: "A run, each (target, evaluator version)'s ledger state, and the verdicts given",
    description:
      '`evaluations` is the ledger: each evaluation of the run, its state and reason. ' +
      '`verdicts` is what was judged: the current feedback on its turn, its messages and the ' +
      'artifact versions it produced, from evaluators, reviewers and users alike, each with ' +
      'its value, label, source and evaluator version, oldest first.',
    params: RunParams,
    answers: { 200: RunReply },
  },
  thread: {
    method: 'GET',
    path: '/v1/threads/:threadId',
    allow: READERS,
    tags: ['reading'],
    summary: "A thread and its evaluation: each generation's ledger state, oldest first",
    description:
      'A thread is judged each time it goes quiet (or its host ends it); every generation ' +
      "is kept, and each evaluator's last one is the thread's current verdict.",
    params: ThreadParams,
    answers: { 200: ThreadReply },
  },
  ledger: {
    method: 'GET',
    path: '/v1/ledger',
    allow: READERS,
    tags: ['reading'],
    summary: 'The evaluation ledger in pages, oldest key first',
    query: LedgerQuery,
    answers: { 200: LedgerReply },
  },
  scoresSummary: {
    method: 'GET',
    path: '/v1/scores/summary',
    allow: READERS,
    tags: ['reading'],
    summary: 'Counts, means and distributions of the stored feedback’s scores, by population',
    description:
      'Grouped by source, so end-user sentiment, reviewer assessment and automated ' +
      'measurements never merge; JUDGE and HARNESS groups are per evaluator version, and ' +
      '`sourceLabel` stays a group of its own. Shadow versions’ verdicts are not their ' +
      'feedback type’s current verdict: they are left out unless `includeShadow=true`, and ' +
      'then grouped apart (`shadow: true`). With `per=day` each group is split by the UTC ' +
      'day its feedback was last given on (`day`).',
    query: ScoresSummaryQuery,
    answers: { 200: ScoresSummaryReply },
  },
});

export const registerReading = bindRoutes(readingRoutes, {
  run: async ({ params, request, deps }) => {
    const { workspaceId } = callerOf(request);
    const run = await deps.store.run(workspaceId, params.runId);
    if (run === null) {
      throw refuse(notFound('run', params.runId));
    }
    const entries = (await evaluationsOfRuns(deps.store, workspaceId, [run.run_id])).get(
      run.run_id,
    );
    return {
      run: wireRun(run),
      evaluations: await ledgerEntries(deps.store, workspaceId, entries ?? []),
      verdicts: await runVerdicts(deps.store, deps.app.feedbackTypes, workspaceId, run),
      ...(await runStepsOf(deps, workspaceId, run)),
    };
  },

  thread: async ({ params, request, deps }) => {
    const { workspaceId } = callerOf(request);
    const thread = await deps.store.thread(workspaceId, params.threadId);
    if (thread === null) {
      throw refuse(notFound('thread', params.threadId));
    }
    const entries = await deps.store.ledger.evaluations(workspaceId, {
      target_key: targetKey({ kind: 'thread', thread_id: thread.thread_id }),
    });
    return {
      thread: wireThread(thread),
      evaluations: await ledgerEntries(deps.store, workspaceId, byGeneration(entries)),
    };
  },

  ledger: async ({ query, request, deps }) => {
    const { runId, threadId, state, cursor, limit } = query;
    const { workspaceId } = callerOf(request);
    const all = (
      await deps.store.ledger.evaluations(workspaceId, {
        ...(state ? { state } : {}),
        ...(threadId ? { target_key: targetKey({ kind: 'thread', thread_id: threadId }) } : {}),
      })
    )
      .filter(
        (entry) => runId === undefined || runOfTarget(entry.target as EvaluationTarget) === runId,
      )
      .map((entry) => ({
        entry,
        key: `${entry.generation} ${entry.participant} ${entry.target_key}`,
      }));
    const start = cursor === undefined ? 0 : all.findIndex(({ key }) => key > cursor);
    const page = start < 0 ? [] : all.slice(start, start + limit);
    const more = start >= 0 && start + limit < all.length;
    return {
      entries: await ledgerEntries(
        deps.store,
        workspaceId,
        page.map(({ entry }) => entry),
      ),
      nextCursor: more ? (page.at(-1)?.key ?? null) : null,
    };
  },

  scoresSummary: async ({ query, request, deps }) => {
    const { source, name, from, to, includeShadow, per } = query;
    return {
      groups: await summarizeScores(
        deps.store,
        deps.app.feedbackTypes,
        callerOf(request).workspaceId,
        {
          ...(source ? { source: sourceOf(source) } : {}),
          name,
          from,
          to,
          includeShadow,
          ...(per ? { per } : {}),
        },
      ),
    };
  },
});

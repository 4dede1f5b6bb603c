import type { EvaluationTarget } from '../../core/index.js';
import { notFound, targetKey } from '../../core/index.js';
import { stepsOfRun } from '../../traces/index.js';
import { sourceOf, wireRun, wireSteps, wireThread } from '../../wire/entities.js';
import { byGeneration, ledgerEntries, runOfTarget } from '../../wire/ledger-entries.js';
import { evaluationsOfRuns } from '../../wire/run-evaluations.js';
import { runVerdicts } from '../../wire/run-verdicts.js';
import { summarizeScores } from '../../wire/score-summary.js';
import { readingRoutes } from '../contracts/reading.js';
import { refuse } from '../errors.js';
import { bindRoutes } from './bind-routes.js';
import { callerOf } from './context.js';

// Reading back (contracts/reading.ts): a run with its evaluation ledger, the ledger in pages, and
// a summary of scores grouped so that no two populations are ever merged.

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
      ...wireSteps(await stepsOfRun(deps.store.traceSpans, workspaceId, run)),
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

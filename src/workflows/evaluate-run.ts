import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { EvaluationTarget } from '../activities/types.js';
import type { EvaluatorRef } from '../evaluators/registry.js';
import { forEachBounded } from './bounded.js';
import {
  DEFAULT_ABANDON_AFTER_MS,
  DEFAULT_HISTORY_BUDGET,
  type EvaluateRunInput,
  type EvaluateRunState,
  type RunEvent,
  runEventSignal,
  runStateQuery,
} from './evaluate-run-messages.js';
import { evaluateTarget } from './evaluate-target.js';
import { evaluationKey } from './evaluation-key.js';

/**
 * One agent run, from its start to its end across any number of pauses, then its evaluation. A
 * paused run is a workflow blocked on a condition: it holds no worker slot. When the run ends,
 * the evaluators pinned in its plan judge the turn, its assistant messages and the artifact
 * versions it produced.
 */
export async function evaluateRun(input: EvaluateRunInput): Promise<EvaluateRunState> {
  const state: EvaluateRunState = input.carried ?? {
    runId: input.runId,
    status: 'running',
    lastSeq: 0,
    pauses: 0,
    pausedMs: 0,
    pausedSince: null,
    abandoned: false,
    startedAt: new Date().toISOString(),
    endedAt: null,
    messages: [],
    artifacts: [],
    evaluations: {},
  };
  const abandonAfterMs = input.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
  const online: string[] = [];

  const endPause = () => {
    if (state.pausedSince !== null) state.pausedMs += Date.now() - state.pausedSince;
    state.pausedSince = null;
  };
  // The relay delivers each log event at least once and in seq order, so anything at or below the
  // last applied seq is a repeat. Events after the run ended change nothing.
  const apply = (event: RunEvent) => {
    if (event.seq <= state.lastSeq || state.endedAt !== null) return;
    state.lastSeq = event.seq;
    switch (event.type) {
      case 'started':
        return;
      case 'paused':
        if (state.status !== 'running') return;
        state.status = 'paused';
        state.pauses += 1;
        state.pausedSince = Date.now();
        return;
      case 'resumed':
        if (state.status !== 'paused') return;
        endPause();
        state.status = 'running';
        return;
      case 'ended':
        endPause();
        state.status = event.status;
        state.endedAt = new Date().toISOString();
        return;
      case 'message':
        if (event.role !== 'assistant') return;
        state.messages.push(event.message_id);
        if (input.online) online.push(event.message_id);
        return;
      case 'artifact':
        state.artifacts.push({ artifact_id: event.artifact_id, version: event.version });
        return;
    }
  };
  setHandler(runEventSignal, (...events) => {
    for (const event of events) apply(event);
  });
  setHandler(runStateQuery, () => state);

  const concurrency = input.concurrency ?? 4;
  const messageTarget = (message_id: string): EvaluationTarget => ({
    kind: 'message',
    message_id,
    thread_id: input.threadId,
    run_id: input.runId,
  });
  const judge = async ([evaluator, target]: Pair) => {
    const key = evaluationKey(evaluator, target);
    if (state.evaluations[key] && state.evaluations[key].state !== 'pending') return;
    state.evaluations[key] = { evaluator, target, state: 'pending', reason: null };
    const outcome = await evaluateTarget({
      workspaceId: input.workspaceId,
      workflowId: workflowInfo().workflowId,
      evaluator,
      target,
      generation: 'run',
    });
    state.evaluations[key] = { evaluator, target, ...outcome };
  };
  // Temporal suggests continuing as new only at thousands of events; evaluateRun keeps its own,
  // smaller budget. Histories recorded before the budget keep their course on replay.
  const budget = input.historyBudget ?? DEFAULT_HISTORY_BUDGET;
  const mustRollOver = () =>
    suggested() || (workflowInfo().historyLength > budget && patched(HISTORY_BUDGET_PATCH));
  const rollOver = async () => {
    await condition(allHandlersFinished);
    await continueAsNew<typeof evaluateRun>({ ...input, carried: state });
  };

  while (state.endedAt === null && !state.abandoned) {
    if (state.status === 'paused') {
      const left = abandonAfterMs - (Date.now() - (state.pausedSince ?? Date.now()));
      const woke = await condition(
        () => state.status !== 'paused' || online.length > 0 || suggested(),
        Math.max(left, 1),
      );
      if (!woke) state.abandoned = true;
    } else {
      await condition(
        () =>
          state.status === 'paused' || state.endedAt !== null || online.length > 0 || suggested(),
      );
    }
    await forEachBounded(
      pairs(input.plan.message, online.splice(0).map(messageTarget)),
      concurrency,
      judge,
    );
    if (mustRollOver() && state.endedAt === null && !state.abandoned) await rollOver();
  }

  if (state.abandoned) endPause();
  const unsettled = pairs(input.plan.turn, [{ kind: 'turn', run_id: input.runId }])
    .concat(pairs(input.plan.message, state.messages.map(messageTarget)))
    .concat(
      pairs(
        input.plan.artifact,
        state.artifacts.map((a) => ({ kind: 'artifact', ...a })),
      ),
    )
    .filter(([e, t]) => (state.evaluations[evaluationKey(e, t)]?.state ?? 'pending') === 'pending');
  // A long run's evaluations continue as new between chunks, so its history stays within budget
  // (a chunk adds about 3 events per evaluation and one workflow task per completion).
  const chunk = concurrency * 8;
  for (let i = 0; i < unsettled.length; i += chunk) {
    await forEachBounded(unsettled.slice(i, i + chunk), concurrency, judge);
    if (mustRollOver() && i + chunk < unsettled.length) await rollOver();
  }
  return state;
}

const HISTORY_BUDGET_PATCH = 'evaluate-run-history-budget';
const suggested = () => workflowInfo().continueAsNewSuggested;

type Pair = [EvaluatorRef, EvaluationTarget];
const pairs = (evaluators: EvaluatorRef[], targets: EvaluationTarget[]): Pair[] =>
  targets.flatMap((target) => evaluators.map((evaluator): Pair => [evaluator, target]));

import { condition, patched, setHandler, workflowInfo } from '@temporalio/workflow';
import type { EvaluationTarget } from '../activities/types.js';
import type { EvaluatorRef } from '../evaluators/registry.js';
import { forEachBounded } from './bounded.js';
import { carryOver, suggested } from './carry-over.js';
import {
  DEFAULT_ABANDON_AFTER_MS,
  DEFAULT_HISTORY_BUDGET,
  type EvaluateRunInput,
  type EvaluateRunState,
  runEventSignal,
  runStateQuery,
} from './evaluate-run-messages.js';
import { evaluateTarget } from './evaluate-target.js';
import { evaluationKey } from './evaluation-key.js';
import { applyRunEvent, endPause, initialRunState } from './run-state.js';

/**
 * One agent run, from its start to its end across any number of pauses, then its evaluation. A
 * paused run is a workflow blocked on a condition: it holds no worker slot. When the run ends,
 * the evaluators pinned in its plan judge the turn, its assistant messages and the artifact
 * versions it produced.
 */
export async function evaluateRun(input: EvaluateRunInput): Promise<EvaluateRunState> {
  const state: EvaluateRunState = input.carried ?? initialRunState(input.runId);
  const abandonAfterMs = input.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
  const online: string[] = [];
  const onAnswer = (message_id: string) => {
    if (input.online) online.push(message_id);
  };
  setHandler(runEventSignal, (...events) => {
    for (const event of events) applyRunEvent(state, event, onAnswer);
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
  const rollOver = () => carryOver<typeof evaluateRun>({ ...input, carried: state });

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

  if (state.abandoned) endPause(state);
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

type Pair = [EvaluatorRef, EvaluationTarget];
const pairs = (evaluators: EvaluatorRef[], targets: EvaluationTarget[]): Pair[] =>
  targets.flatMap((target) => evaluators.map((evaluator): Pair => [evaluator, target]));

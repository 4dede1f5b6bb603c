import { condition, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { EvalflowActivities } from '../activities/types.js';
import { evaluatorId, threadGeneration } from '../core/keys.js';
import { HEARTBEAT_TIMEOUT, RETRY_SOON_THEN_BACK_OFF } from './activity-timing.js';
import { forEachBounded } from './bounded.js';
import { carryOver, historyIsLong, suggested } from './carry-over.js';
import { DEFAULT_ABANDON_AFTER_MS } from './evaluate-run-messages.js';
import { evaluateTarget } from './evaluate-target.js';
import {
  DEFAULT_THREAD_HISTORY_BUDGET,
  type EvaluateThreadInput,
  type EvaluateThreadState,
  type OpenGeneration,
  type ThreadEvent,
  threadEventSignal,
  threadStateQuery,
} from './evaluate-thread-messages.js';
import { applyThreadEvent, deadlineOf, initialThreadState } from './thread-state.js';

const progress = proxyActivities<
  Pick<EvalflowActivities, 'loadThreadProgress' | 'saveThreadProgress'>
>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { ...RETRY_SOON_THEN_BACK_OFF, maximumInterval: '30 seconds' },
});

/**
 * One thread's evaluation (docs/architecture.md#how-a-thread-is-evaluated). Activity (a run
 * started or resumed, a message posted) opens a generation for each thread evaluator live at
 * its seq; each is judged once the thread has been quiet for its rule's `idleFor` (no run open,
 * no message posted), or at once when the host ends the thread. Waiting is one durable timer,
 * which activity only pushes later: a message while it waits adds a signal, not a new timer.
 * Once nothing is open the workflow saves how far it got and closes; the thread's next activity
 * starts a new one, which reads that first, so a thread idle for months costs nothing.
 */
export async function evaluateThread(input: EvaluateThreadInput): Promise<EvaluateThreadState> {
  const state: EvaluateThreadState = input.carried ?? initialThreadState(input.threadId);
  const abandonAfterMs = input.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
  const thread = { workspaceId: input.workspaceId, threadId: input.threadId };
  const openCount = () => Object.keys(state.open).length;
  const apply = (event: ThreadEvent) => applyThreadEvent(state, event);
  const drainInbox = () => {
    while (state.inbox.length > 0 && !state.ended) apply(state.inbox.shift() as ThreadEvent);
  };
  // Applied at once, unless the progress is not read yet or an end waits to be judged: then in
  // order, by the main loop.
  setHandler(threadEventSignal, (event) => {
    if (state.appliedThrough === null || state.ended || state.inbox.length > 0) {
      state.inbox.push(event);
    } else {
      apply(event);
    }
  });
  setHandler(threadStateQuery, () => state);

  const deadline = (generation: OpenGeneration) => deadlineOf(state, generation, abandonAfterMs);
  const earliest = () =>
    state.ended ? Number.NEGATIVE_INFINITY : Math.min(...Object.values(state.open).map(deadline));

  const judge = async (due: OpenGeneration[]) => {
    const through = state.lastSeq;
    const generation = threadGeneration(through);
    // Out of `open` first: activity while they are judged opens their next generation.
    for (const { evaluator } of due) delete state.open[evaluatorId(evaluator)];
    state.ended = false;
    await forEachBounded(due, input.concurrency ?? 4, async ({ evaluator }) => {
      const outcome = await evaluateTarget({
        workspaceId: input.workspaceId,
        workflowId: workflowInfo().workflowId,
        evaluator,
        target: { kind: 'thread', thread_id: input.threadId },
        generation,
        throughSeq: through,
      });
      state.latest[evaluatorId(evaluator)] = { generation, throughSeq: through, ...outcome };
    });
  };

  const budget = input.historyBudget ?? DEFAULT_THREAD_HISTORY_BUDGET;

  if (state.appliedThrough === null) {
    const { appliedThrough, openRuns } = await progress.loadThreadProgress(thread);
    state.lastSeq = Math.max(state.lastSeq, appliedThrough);
    for (const run of openRuns) {
      state.runs[run.run_id] ??= { pausedAt: run.paused ? Date.now() : null };
    }
    state.appliedThrough = appliedThrough;
  }

  for (;;) {
    drainInbox();
    const now = Date.now();
    const due = Object.values(state.open).filter((g) => state.ended || deadline(g) <= now);
    if (due.length > 0) {
      await judge(due);
      continue;
    }
    if (openCount() === 0 && state.inbox.length === 0) {
      if (state.lastSeq > (state.appliedThrough ?? 0)) {
        await progress.saveThreadProgress({ ...thread, appliedThrough: state.lastSeq });
        state.appliedThrough = state.lastSeq;
      }
      // A signal that came while saving keeps the workflow going; one that comes as it
      // completes makes Temporal refuse the completion and run this loop again with it.
      if (state.inbox.length === 0 && openCount() === 0) return state;
      continue;
    }
    if (historyIsLong(budget)) await carryOver<typeof evaluateThread>({ ...input, carried: state });
    // One timer until the earliest generation could be due. Activity only pushes deadlines
    // later, so it does not wake the workflow; it wakes on an end, on a deadline brought
    // nearer (a run ending, a generation with a shorter idleFor), or when the timer fires.
    const next = earliest();
    const wake = () => state.ended || state.inbox.length > 0 || earliest() < next || suggested();
    if (next === Number.POSITIVE_INFINITY) await condition(wake);
    else await condition(wake, Math.max(next - now, 1));
  }
}

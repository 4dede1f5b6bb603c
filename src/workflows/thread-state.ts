import { evaluatorId } from '../core/keys.js';
import type { ThreadEvaluatorRef } from '../evaluators/registry.js';
import type {
  EvaluateThreadState,
  OpenGeneration,
  ThreadEvent,
} from './evaluate-thread-messages.js';

// A thread's state as its events move it, and when its open generations fall due: pure, so
// evaluateThread's loop reads as waiting and judging. The clock is the workflow's (deterministic
// in its sandbox).

/** A thread's state before its progress is read. */
export function initialThreadState(threadId: string): EvaluateThreadState {
  return {
    threadId,
    appliedThrough: null,
    lastSeq: 0,
    inbox: [],
    runs: {},
    lastActivityAt: Date.now(),
    ended: false,
    open: {},
    latest: {},
  };
}

/** Opens a generation for each evaluator of the plan that has none open. */
function opened(state: EvaluateThreadState, plan: readonly ThreadEvaluatorRef[], seq: number) {
  for (const evaluator of plan)
    state.open[evaluatorId(evaluator)] ??= { evaluator, openedSeq: seq };
}

/** Applies one event; false for an end that must be judged before anything after it. */
export function applyThreadEvent(state: EvaluateThreadState, event: ThreadEvent): boolean {
  // The relay delivers each log event at least once and in seq order: a seq at or below the
  // last applied is a repeat.
  if (event.seq <= state.lastSeq) return true;
  state.lastSeq = event.seq;
  switch (event.type) {
    case 'run_started':
      state.runs[event.run_id] = { pausedAt: null };
      opened(state, event.plan, event.seq);
      break;
    case 'run_paused':
      if (state.runs[event.run_id] !== undefined)
        state.runs[event.run_id] = { pausedAt: Date.now() };
      break;
    case 'run_ended':
      delete state.runs[event.run_id];
      break;
    case 'message':
      opened(state, event.plan, event.seq);
      break;
    case 'ended':
      if (Object.keys(state.open).length === 0) return true;
      state.ended = true;
      return false;
  }
  state.lastActivityAt = Date.now();
  return true;
}

/** When a generation is due: quiet for its idleFor, and no run open (a paused one abandoned). */
export function deadlineOf(
  state: EvaluateThreadState,
  { evaluator }: OpenGeneration,
  abandonAfterMs: number,
): number {
  let at = state.lastActivityAt + evaluator.idleForMs;
  for (const run of Object.values(state.runs)) {
    if (run.pausedAt === null) return Number.POSITIVE_INFINITY;
    at = Math.max(at, run.pausedAt + abandonAfterMs);
  }
  return at;
}

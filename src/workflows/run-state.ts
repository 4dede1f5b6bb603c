import type { EvaluateRunState, RunEvent } from './evaluate-run-messages.js';

// A run's state as its events move it: pure, so evaluateRun's loop reads as waiting and judging.
// The clock is the workflow's (deterministic in its sandbox), read only where the state records
// a time.

/** A run's state before any event: running since the workflow started. */
export function initialRunState(runId: string): EvaluateRunState {
  return {
    runId,
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
}

/** Ends a pause in progress, adding its length to the time paused. */
export function endPause(state: EvaluateRunState): void {
  if (state.pausedSince !== null) state.pausedMs += Date.now() - state.pausedSince;
  state.pausedSince = null;
}

/**
 * Applies one event to the state; an assistant message is also told to `onAnswer`. The relay
 * delivers each log event at least once and in seq order, so anything at or below the last
 * applied seq is a repeat. Events after the run ended change nothing.
 */
export function applyRunEvent(
  state: EvaluateRunState,
  event: RunEvent,
  onAnswer: (message_id: string) => void,
): void {
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
      endPause(state);
      state.status = 'running';
      return;
    case 'ended':
      endPause(state);
      state.status = event.status;
      state.endedAt = new Date().toISOString();
      return;
    case 'message':
      if (event.role !== 'assistant') return;
      state.messages.push(event.message_id);
      onAnswer(event.message_id);
      return;
    case 'artifact':
      state.artifacts.push({ artifact_id: event.artifact_id, version: event.version });
      return;
  }
}

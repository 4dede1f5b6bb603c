import { condition, setHandler } from '@temporalio/workflow';
import {
  type EvaluateRunInput,
  type EvaluateRunState,
  type RunSignal,
  runEndedSignal,
  runPausedSignal,
  runResumedSignal,
  runStateQuery,
} from './evaluate-run-messages.js';

/**
 * One agent run, from its start to its end, across any number of pauses. A paused run is a
 * workflow blocked on a condition: it holds no worker slot and no timer.
 */
export async function evaluateRun(input: EvaluateRunInput): Promise<EvaluateRunState> {
  const state: EvaluateRunState = {
    runId: input.runId,
    status: 'running',
    lastSeq: 0,
    pauses: 0,
    pausedMs: 0,
    startedAt: new Date().toISOString(),
    endedAt: null,
  };
  let pausedSince: number | null = null;

  // The relay delivers each log event at least once and in seq order, so anything at or below the
  // last applied seq is a repeat.
  const fresh = ({ seq }: RunSignal): boolean => {
    if (seq <= state.lastSeq) return false;
    state.lastSeq = seq;
    return true;
  };

  setHandler(runPausedSignal, (signal) => {
    if (!fresh(signal) || state.status !== 'running') return;
    state.status = 'paused';
    state.pauses += 1;
    pausedSince = Date.now();
  });
  setHandler(runResumedSignal, (signal) => {
    if (!fresh(signal) || state.status !== 'paused') return;
    state.status = 'running';
    state.pausedMs += Date.now() - (pausedSince ?? Date.now());
    pausedSince = null;
  });
  setHandler(runEndedSignal, (signal) => {
    if (!fresh(signal) || (state.status !== 'running' && state.status !== 'paused')) return;
    if (pausedSince !== null) state.pausedMs += Date.now() - pausedSince;
    pausedSince = null;
    state.status = signal.status;
    state.endedAt = new Date().toISOString();
  });
  setHandler(runStateQuery, () => state);

  await condition(() => state.endedAt !== null);
  return state;
}

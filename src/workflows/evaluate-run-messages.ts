// The messages of `evaluateRun`, shared by the workflow, the client and the tests.
import { defineQuery, defineSignal } from '@temporalio/workflow';

export type RunStatus = 'running' | 'paused' | 'completed' | 'stopped' | 'failed';
export type EndStatus = Extract<RunStatus, 'completed' | 'stopped' | 'failed'>;

export interface EvaluateRunInput {
  workspaceId: string;
  runId: string;
  threadId: string;
}

/** Every signal carries the log `seq` of the event behind it; a seq already seen is ignored. */
export interface RunSignal {
  seq: number;
}

export interface RunEndedSignal extends RunSignal {
  status: EndStatus;
}

export interface EvaluateRunState {
  runId: string;
  status: RunStatus;
  /** Highest log seq applied. */
  lastSeq: number;
  pauses: number;
  /** Workflow time spent paused, in milliseconds. */
  pausedMs: number;
  startedAt: string;
  endedAt: string | null;
}

export const runPausedSignal = defineSignal<[RunSignal]>('runPaused');
export const runResumedSignal = defineSignal<[RunSignal]>('runResumed');
export const runEndedSignal = defineSignal<[RunEndedSignal]>('runEnded');
export const runStateQuery = defineQuery<EvaluateRunState>('runState');

/** One workflow per run and workspace. */
export function evaluateRunWorkflowId(workspaceId: string, runId: string): string {
  return `run:${workspaceId}:${runId}`;
}

import type { OperationsLog } from '../metrics/index.js';

/** A phase of the engine's start, in the order they usually end. */
export type StartPhase = 'store' | 'temporal' | 'workflow_bundle' | 'workers' | 'polling';

export interface StartPhases {
  /** A phase that began when the one before it ended. */
  ended(phase: StartPhase, fields?: Record<string, unknown>): void;
  /** A phase that ran beside the others, from `began` (`performance.now()`). */
  endedAlongside(phase: StartPhase, began: number, fields?: Record<string, unknown>): void;
}

/**
 * Logs each phase of a start as it ends (`engine.start`): how long it took (`ms`) and how long
 * since the start began (`total_ms`), so an operator sees where a slow restart spent its time.
 */
export function startPhases(operations: OperationsLog, began = performance.now()): StartPhases {
  let last = began;
  const tell = (phase: StartPhase, since: number, fields: Record<string, unknown>) => {
    const now = performance.now();
    operations.info(
      {
        event: 'engine.start',
        phase,
        ms: Math.round(now - since),
        total_ms: Math.round(now - began),
        ...fields,
      },
      `engine start: ${phase.replace('_', ' ')}`,
    );
    return now;
  };
  return {
    ended(phase, fields = {}) {
      last = tell(phase, last, fields);
    },
    endedAlongside(phase, since, fields = {}) {
      tell(phase, since, fields);
    },
  };
}

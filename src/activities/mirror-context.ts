import type { FeedbackTypeRegistry } from '../core/index.js';
import type { MirrorObserver } from '../metrics/observers.js';
import {
  InvalidScoreError,
  type ScoreReader,
  type ScoreSink,
  ScoreSinkError,
} from '../scores/index.js';
import type { EntityReads, EvaluationRecords, EventLog } from '../store/index.js';

/** What the mirror reads and settles: the log, the views its scores are mapped from, the ledger. */
export type MirrorStore = EntityReads & EventLog & Pick<EvaluationRecords, 'ledger'>;

import { asActivityFailure } from './failures.js';

export interface MirrorDeps {
  store: MirrorStore;
  feedbackTypes: FeedbackTypeRegistry;
  sink: ScoreSink;
  /** Reads scores back; without one (a synchronous sink) what was recorded is confirmed. */
  reader: ScoreReader | null;
  tenantId: string;
  /** Told of the scores sent, read back and failed (for the metrics). */
  observer?: MirrorObserver | undefined;
}

/** What the mirror's activities share: their deps, the scores' options and the observer. */
export interface MirrorContext {
  deps: MirrorDeps;
  options: { feedbackTypes: FeedbackTypeRegistry; store: MirrorStore; tenantId: string };
  observe: MirrorObserver;
}

/** Tells nothing: a mirror without metrics. */
const unobserved: MirrorObserver = {
  written: () => {},
  deletesSent: () => {},
  confirmed: () => {},
  failed: () => {},
};

export const mirrorContext = (deps: MirrorDeps): MirrorContext => ({
  deps,
  options: { feedbackTypes: deps.feedbackTypes, store: deps.store, tenantId: deps.tenantId },
  observe: deps.observer ?? unobserved,
});

/**
 * Runs a sink call. A refusal for good (an invalid score, a non-retryable sink error) is returned
 * as its message; a transient failure is thrown for Temporal to retry, after the backend's
 * Retry-After when it gave one.
 */
export async function refusal(work: () => Promise<void>): Promise<string | null> {
  try {
    await work();
    return null;
  } catch (error) {
    if (error instanceof InvalidScoreError) return error.message;
    if (!(error instanceof ScoreSinkError)) throw error;
    if (!error.retryable) return error.message;
    throw asActivityFailure(error);
  }
}

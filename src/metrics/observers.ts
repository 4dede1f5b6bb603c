import type { EvaluationState, UsageReport } from '../core/index.js';

// What the engine's and the API's parts tell as they work, for the metrics: ports of plain
// methods, so the activities, the relay and the API's routes know nothing of Prometheus. Each is
// told in the process where the thing happens (activities in the worker, requests in the API).
// Every method returns at once and never throws.

/** An evaluator version, as its labels name it. */
export interface EvaluatorVersion {
  name: string;
  version: string;
}

/** The `evaluate` activities: each evaluation settled, and each time an evaluator judged. */
export interface EvaluationObserver {
  /**
   * An evaluation was settled in the ledger in `state`. Activities run at least once, so an
   * attempt retried after settling may tell it again; the ledger is the count that is exact.
   */
  settled(evaluator: EvaluatorVersion, state: EvaluationState): void;
  /** The evaluator judged a target in `seconds`; `failed` when it threw (to be retried, or not). */
  judged(evaluator: EvaluatorVersion, seconds: number, failed: boolean): void;
  /** The evaluator reported a model call's usage, costing `costNanos` (null: no price known). */
  used?(evaluator: EvaluatorVersion, usage: UsageReport, costNanos: number | null): void;
}

/** The mirror's activities, for the one score sink the engine writes to. */
export interface MirrorObserver {
  /** Scores sent to the sink (first sends and re-sends). */
  written(scores: number): void;
  /** Deletes sent to the sink. */
  deletesSent(scores: number): void;
  /** Scores read back as sent: a write visible with its value, a delete gone. */
  confirmed(scores: number): void;
  /** Score entries settled failed: refused by the sink, or never read back as sent. */
  failed(scores: number): void;
}

/** The activities' observers; any left out is told nothing. */
export interface ActivityObservers {
  evaluations?: EvaluationObserver;
  mirror?: MirrorObserver;
}

/** A workspace's trigger relay. */
export interface RelayObserver {
  /** A page of events was relayed; the oldest was appended at `oldestTs` (the log's clock). */
  relayed(events: number, oldestTs: string): void;
  /** Events no workflow would take, now in the undelivered ledger. */
  undelivered(events: number): void;
}

/** The HTTP API: one call per answered request. */
export interface HttpObserver {
  /** `route` is the route's pattern (`/v1/threads/:threadId`), never the URL it was called with. */
  answered(method: string, route: string, status: number, seconds: number): void;
}

// The two ports of evalr's scores, plus a reader for reconciliation. Ports take and give evalflow's
// own values (`Score`, `ScoreConfig`), never a backend SDK's types. I/O ports are async.

import type { Score } from './score.js';
import type { ScoreConfig } from './score-config.js';

/**
 * Where scores are recorded. `checkScoreSink` is the contract.
 *
 * - `record` upserts by id: recording a score again replaces the one with that id (latest write
 *   wins) and never adds a second. A batch with an invalid score is refused whole, with
 *   `InvalidScoreError`, before anything is sent.
 * - Failures reaching the backend are `ScoreSinkError`s whose `retryable` and `retryAfterMs` tell
 *   a caller that owns retries what to do. Retrying a whole `record` is always safe.
 * - `delete`, when a sink has it, removes scores by id; an id the sink does not hold is no error.
 *   A backend may apply it later (Langfuse does), so confirm with a `ScoreReader`.
 */
export interface ScoreSink {
  record(scores: readonly Score[]): Promise<void>;
  delete?(ids: readonly string[]): Promise<void>;
}

/**
 * Reads recorded scores back by id, to prove they were persisted: a backend that accepts writes
 * before it stores them may still drop some. Ids it does not (yet) hold are absent from the map.
 */
export interface ScoreReader {
  read(ids: readonly string[]): Promise<Map<string, Score>>;
}

/**
 * Where score configs are kept, by name. Configs are only ever created, never updated, and a
 * retired one is archived, never deleted (`syncScoreConfigs`). `checkScoreConfigStore` is the
 * contract.
 *
 * - `names` lists every name the store holds once, archived ones included: an archived name
 *   still exists, and its old scores were validated against it.
 * - `statuses` gives the same names, each archived once it has no active config left (the shape
 *   of core's `ScoreConfigStatus`, so a decision's context can take it as it is).
 * - `archive` archives every active config of a name and says how many; 0 when none is active,
 *   so archiving twice, or a name the store does not hold, changes nothing.
 * - `check`, when a store has it, throws for a config the store could never hold (such as a
 *   name too long for the backend) without sending anything, so a sync can refuse before it
 *   creates.
 */
export interface ScoreConfigStore {
  names(): Promise<readonly string[]>;
  statuses(): Promise<ReadonlyMap<string, { readonly archived: boolean }>>;
  create(config: ScoreConfig): Promise<void>;
  archive(name: string): Promise<number>;
  check?(config: ScoreConfig): void;
}

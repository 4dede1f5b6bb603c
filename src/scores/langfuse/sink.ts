import type { LangfuseClient } from '@langfuse/client';
import { parseScores, type Score } from '../model/score.js';
import type { ScoreSink } from '../ports.js';
import type { LangfuseScoreConfigStore } from './config-store.js';
import { type IngestionFailure, LangfuseIngestionError, LangfuseRequestError } from './errors.js';
import {
  batches,
  checkLangfuseScores,
  DEFAULT_MAX_BATCH_BYTES,
  type ScoreCreateEvent,
  scoreEvent,
} from './events.js';
import {
  callLangfuse,
  DEFAULT_TIMEOUT_SECONDS,
  requestOptions,
  retryableStatus,
} from './requests.js';

export interface LangfuseScoreSinkOptions {
  /** Per request; 30 s by default. The SDK's own retries are always off. */
  readonly timeoutInSeconds?: number;
  /** The largest request body; 3,000,000 bytes by default, under Langfuse's 3.5 MB. */
  readonly maxBatchBytes?: number;
  /** Langfuse's `environment` for the scores; Langfuse's `default` when unset. */
  readonly environment?: string;
  /**
   * Link each score to the active config of its name, so Langfuse validates it (and drops it,
   * silently, when it breaks the config). Names without an active config are sent unlinked.
   */
  readonly linkConfigs?: LangfuseScoreConfigStore;
  /** The time of a score that has none; the clock by default. */
  readonly now?: () => Date;
}

/**
 * Records scores in Langfuse as `score-create` events, batched under the size limit. Each event
 * carries the score's id as `body.id` and its timestamp as the event's, so sending a score again
 * replaces the stored one (a score without a timestamp is stamped when sent, and a resend on a
 * later UTC day adds a second row: give scores their time). Booleans go as 1 or 0.
 *
 * Langfuse accepts events before it stores them and may still drop one that breaks its config,
 * so read scores back with `LangfuseScoreReader` to prove they were kept.
 */
export class LangfuseScoreSink implements ScoreSink {
  readonly #client: LangfuseClient;
  readonly #timeout: number;
  readonly #maxBatchBytes: number;
  readonly #environment: string | undefined;
  readonly #configs: LangfuseScoreConfigStore | undefined;
  readonly #now: () => Date;
  #configIds: Map<string, string> | null = null;
  #lookedUp = new Set<string>();

  constructor(client: LangfuseClient, options: LangfuseScoreSinkOptions = {}) {
    this.#client = client;
    this.#timeout = options.timeoutInSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    this.#maxBatchBytes = options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES;
    this.#environment = options.environment;
    this.#configs = options.linkConfigs;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * Sends the scores, every batch even when one has refused events.
   *
   * @throws InvalidScoreError before sending anything, when a score is invalid or has neither a
   *   trace nor a session, or its text does not fit Langfuse.
   * @throws LangfuseRequestError when a request fails as a whole (retryable for timeouts, 408,
   *   429 with `retryAfterMs`, and 5xx). Batches before it were sent; recording again is safe.
   * @throws LangfuseIngestionError listing the events Langfuse refused in its 207 answers.
   */
  async record(scores: readonly Score[]): Promise<void> {
    const valid = parseScores(scores);
    checkLangfuseScores(valid);
    const configIds = await this.#configIdsFor(valid);
    const now = this.#now();
    const events = valid.map((score) =>
      scoreEvent(score, {
        now,
        environment: this.#environment,
        configId: configIds.get(score.name),
      }),
    );
    const failures: IngestionFailure[] = [];
    for (const batch of batches(events, this.#maxBatchBytes)) {
      failures.push(...(await this.#send(batch)));
    }
    if (failures.length > 0) throw new LangfuseIngestionError(failures, valid.length);
  }

  /**
   * Deletes scores by id. Langfuse answers 202 and deletes later, so a score may still be read
   * for a while; an id Langfuse does not hold (404) counts as deleted. Langfuse limits deletes
   * per day, by plan.
   *
   * @throws LangfuseRequestError for any other failure; ids before it were deleted.
   */
  async delete(ids: readonly string[]): Promise<void> {
    for (const id of new Set(ids)) {
      try {
        await callLangfuse('DELETE /api/public/scores/{id}', () =>
          this.#client.api.legacy.scoreV1.delete(id, requestOptions(this.#timeout)),
        );
      } catch (error) {
        if (error instanceof LangfuseRequestError && error.status === 404) continue;
        throw error;
      }
    }
  }

  async #send(batch: readonly ScoreCreateEvent[]): Promise<IngestionFailure[]> {
    const response = await callLangfuse('POST /api/public/ingestion', () =>
      this.#client.api.ingestion.batch({ batch: [...batch] }, requestOptions(this.#timeout)),
    );
    const byEventId = new Map(batch.map((event) => [event.id, event]));
    return response.errors.map((error) => {
      const event = byEventId.get(error.id);
      return {
        scoreId: event?.body.id ?? error.id,
        name: event?.body.name ?? 'unknown score',
        status: error.status,
        message: error.message ?? (error.error === undefined ? '' : JSON.stringify(error.error)),
        retryable: retryableStatus(error.status),
      };
    });
  }

  /**
   * Active config ids by name. The configs are listed again when a score's name was not looked
   * up since the last listing, so a name without a config costs one listing, not one per call.
   */
  async #configIdsFor(scores: readonly Score[]): Promise<ReadonlyMap<string, string>> {
    if (!this.#configs) return new Map();
    const names = scores.map((score) => score.name);
    if (this.#configIds === null || names.some((name) => !this.#lookedUp.has(name))) {
      this.#configIds = await this.#configs.activeIds();
      this.#lookedUp = new Set([...this.#configIds.keys(), ...names]);
    }
    return this.#configIds;
  }
}

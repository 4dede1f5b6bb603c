import type { ScoreConfig } from './config.js';
import { ScoreConfigExistsError } from './errors.js';
import type { ScoreConfigStore, ScoreReader, ScoreSink } from './ports.js';
import { parseScores, type Score } from './score.js';

/** A `ScoreSink` and `ScoreReader` over a map from id to score, for tests and local runs. */
export class InMemoryScoreSink implements ScoreSink, ScoreReader {
  readonly #byId = new Map<string, Score>();

  async record(scores: readonly Score[]): Promise<void> {
    for (const score of parseScores(scores)) this.#byId.set(score.id, score);
  }

  async delete(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.#byId.delete(id);
  }

  async read(ids: readonly string[]): Promise<Map<string, Score>> {
    const found = new Map<string, Score>();
    for (const id of ids) {
      const score = this.#byId.get(id);
      if (score) found.set(id, score);
    }
    return found;
  }

  /** Every score held, in the order first recorded. */
  scores(): Score[] {
    return [...this.#byId.values()];
  }
}

/** A `ScoreConfigStore` over a map from name to config; creating a name it has throws. */
export class InMemoryScoreConfigStore implements ScoreConfigStore {
  readonly #byName = new Map<string, ScoreConfig>();

  async names(): Promise<string[]> {
    return [...this.#byName.keys()];
  }

  async create(config: ScoreConfig): Promise<void> {
    if (this.#byName.has(config.name)) throw new ScoreConfigExistsError(config.name);
    this.#byName.set(config.name, config);
  }

  /** Every config held, in the order created. */
  configs(): ScoreConfig[] {
    return [...this.#byName.values()];
  }
}

import { ScoreConfigExistsError } from './errors.js';
import { parseScores, type Score } from './model/score.js';
import type { ScoreConfig } from './model/score-config.js';
import type { ScoreConfigStore, ScoreReader, ScoreSink } from './ports.js';

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

/**
 * A `ScoreConfigStore` over a map from name to config and whether it is archived; creating a
 * name it has, archived or not, throws.
 */
export class InMemoryScoreConfigStore implements ScoreConfigStore {
  readonly #byName = new Map<string, { config: ScoreConfig; archived: boolean }>();

  async names(): Promise<string[]> {
    return [...this.#byName.keys()];
  }

  async statuses(): Promise<Map<string, { archived: boolean }>> {
    return new Map([...this.#byName].map(([name, { archived }]) => [name, { archived }]));
  }

  async create(config: ScoreConfig): Promise<void> {
    if (this.#byName.has(config.name)) throw new ScoreConfigExistsError(config.name);
    this.#byName.set(config.name, { config, archived: false });
  }

  async archive(name: string): Promise<number> {
    const held = this.#byName.get(name);
    if (!held || held.archived) return 0;
    held.archived = true;
    return 1;
  }

  /** Every config held, archived ones included, in the order created. */
  configs(): ScoreConfig[] {
    return [...this.#byName.values()].map(({ config }) => config);
  }

  /** The names archived, in the order created. */
  archived(): string[] {
    return [...this.#byName].flatMap(([name, { archived }]) => (archived ? [name] : []));
  }
}

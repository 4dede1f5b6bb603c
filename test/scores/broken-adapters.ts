// Deliberately broken adapters, each breaking one obligation, to prove the contract suites bite.
import type { Score, ScoreConfig, ScoreSink } from '../../src/scores/index.js';
import { InMemoryScoreConfigStore, InMemoryScoreSink } from '../../src/testing/index.js';

/** Adds every score it is given, never replacing. */
export class AppendingSink implements ScoreSink {
  readonly held: Score[] = [];
  async record(scores: readonly Score[]) {
    this.held.push(...scores);
  }
}

/** Keeps the first score of each id: first write wins. */
export class StubbornSink implements ScoreSink {
  readonly held = new Map<string, Score>();
  async record(scores: readonly Score[]) {
    for (const score of scores) if (!this.held.has(score.id)) this.held.set(score.id, score);
  }
}

/** Loses the last score of every call. */
export class LossySink extends InMemoryScoreSink {
  override async record(scores: readonly Score[]) {
    await super.record(scores.slice(0, -1));
  }
}

/** Forgets sessions. */
export class ForgetfulSink extends InMemoryScoreSink {
  override async record(scores: readonly Score[]) {
    await super.record(scores.map(({ sessionId: _, ...score }) => score));
  }
}

/** Stamps every score with its own clock, losing the time it was given. */
export class RestampingSink extends InMemoryScoreSink {
  override async record(scores: readonly Score[]) {
    await super.record(scores.map((score) => ({ ...score, timestamp: '2000-01-01T00:00:00Z' })));
  }
}

/** Drops the source entries of the metadata. */
export class SourcelessSink extends InMemoryScoreSink {
  override async record(scores: readonly Score[]) {
    await super.record(scores.map((score) => ({ ...score, source: {} })));
  }
}

/** Says it deletes, and does not. */
export class UndeletingSink extends InMemoryScoreSink {
  override async delete() {}
}

/** Deletes one too many. */
export class OverdeletingSink extends InMemoryScoreSink {
  override async delete(ids: readonly string[]) {
    const [first] = this.scores();
    await super.delete([...ids, ...(first ? [first.id] : [])]);
  }
}

/** Lists nothing, ever. */
export class AmnesicStore extends InMemoryScoreConfigStore {
  override async names() {
    return [];
  }
}

/** Lists only the first config created. */
export class FirstOnlyStore extends InMemoryScoreConfigStore {
  override async names() {
    return (await super.names()).slice(0, 1);
  }
}

/** Starts with a config in it. */
export class PrefilledStore extends InMemoryScoreConfigStore {
  constructor(config: ScoreConfig) {
    super();
    void this.create(config);
  }
}

/** Says it archived nothing, and archives nothing. */
export class InertArchiveStore extends InMemoryScoreConfigStore {
  override async archive() {
    return 0;
  }
}

/** Says it archived one config, and archives nothing. */
export class PretendArchiveStore extends InMemoryScoreConfigStore {
  override async archive() {
    return 1;
  }
}

/** Counts a config archived again as archived. */
export class RearchivingStore extends InMemoryScoreConfigStore {
  override async archive(name: string) {
    await super.archive(name);
    return (await this.names()).includes(name) ? 1 : 0;
  }
}

/** Forgets archived names, as if archiving deleted them. */
export class DeletingArchiveStore extends InMemoryScoreConfigStore {
  override async names() {
    const archived = new Set(this.archived());
    return (await super.names()).filter((name) => !archived.has(name));
  }
  override async statuses() {
    const statuses = await super.statuses();
    for (const name of this.archived()) statuses.delete(name);
    return statuses;
  }
}

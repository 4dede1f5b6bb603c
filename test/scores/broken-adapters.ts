// Deliberately broken adapters, each breaking one obligation, to prove the contract suites bite;
// and sound ones with a quirk the suites must allow (a key order, a refused malformed id).
import type { Score, ScoreConfig, ScoreDataType, ScoreSink } from '../../src/scores/index.js';
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

/** Drops every score of one data type, as a backend that cannot hold that kind would. */
export class DataTypeDroppingSink extends InMemoryScoreSink {
  constructor(readonly dropped: ScoreDataType) {
    super();
  }
  override async record(scores: readonly Score[]) {
    await super.record(scores.filter((score) => score.dataType !== this.dropped));
  }
}

/** Reads every yes or no back as the same answer, as a sink that mistakes how it stored them. */
export class OneAnswerSink extends InMemoryScoreSink {
  constructor(readonly answer: boolean) {
    super();
  }
  override async record(scores: readonly Score[]) {
    await super.record(
      scores.map((score) =>
        score.dataType === 'BOOLEAN' ? { ...score, value: this.answer } : score,
      ),
    );
  }
}

/** Drops the confidence of every score. */
export class UnsureSink extends InMemoryScoreSink {
  override async record(scores: readonly Score[]) {
    await super.record(scores.map(({ confidence: _, ...score }) => score));
  }
}

/** Drops the span of every score, keeping its trace. */
export class SpanlessSink extends InMemoryScoreSink {
  override async record(scores: readonly Score[]) {
    await super.record(scores.map(({ spanId: _, ...score }) => score));
  }
}

/** Keeps the metadata whole with its keys in another order, as a JSON column may give them back. */
export class ReorderingSink extends InMemoryScoreSink {
  override async record(scores: readonly Score[]) {
    await super.record(
      scores.map((score) => ({
        ...score,
        source: Object.fromEntries(Object.entries(score.source).reverse()),
      })),
    );
  }
}

/** Refuses to delete an empty id, which no score can have, with a typed error. */
export class StrictIdSink extends InMemoryScoreSink {
  override async delete(ids: readonly string[]) {
    if (ids.includes('')) throw new RangeError('a score id is never empty');
    await super.delete(ids);
  }
}

/** Gives an active status for a name never created: from the start, or once it holds a config. */
export class StrayStatusStore extends InMemoryScoreConfigStore {
  readonly #fromTheStart: boolean;
  constructor({ fromTheStart }: { fromTheStart: boolean }) {
    super();
    this.#fromTheStart = fromTheStart;
  }
  override async statuses() {
    const statuses = await super.statuses();
    if (this.#fromTheStart || statuses.size > 0)
      statuses.set('evalflow_contract.stray', { archived: false });
    return statuses;
  }
}

/** Gives the status of the last config created under another name. */
export class MisnamedStatusStore extends InMemoryScoreConfigStore {
  override async statuses() {
    const entries = [...(await super.statuses())];
    const last = entries.pop();
    if (last) entries.push([`${last[0]}_renamed`, last[1]]);
    return new Map(entries);
  }
}

/** Creates each config archived. */
export class ArchivedOnCreateStore extends InMemoryScoreConfigStore {
  override async create(config: ScoreConfig) {
    await super.create(config);
    await super.archive(config.name);
  }
}

/** Leaves archived names out of `names`, while their statuses stay. */
export class UnlistingArchiveStore extends InMemoryScoreConfigStore {
  override async names() {
    const archived = new Set(this.archived());
    return (await super.names()).filter((name) => !archived.has(name));
  }
}

/** Says it archived one config for a name it never held. */
export class ClaimingArchiveStore extends InMemoryScoreConfigStore {
  override async archive(name: string) {
    return (await this.names()).includes(name) ? super.archive(name) : 1;
  }
}

/** Archiving an archived name again restores it, yet says 0 as if nothing changed. */
export class TogglingArchiveStore extends InMemoryScoreConfigStore {
  readonly #restored = new Set<string>();
  override async archive(name: string) {
    const archived = await super.archive(name);
    if (archived === 0) this.#restored.add(name);
    return archived;
  }
  override async statuses() {
    const statuses = await super.statuses();
    for (const name of this.#restored)
      if (statuses.has(name)) statuses.set(name, { archived: false });
    return statuses;
  }
}

/** Lists a name never created beside the ones it holds, once it holds any. */
export class StrayNameStore extends InMemoryScoreConfigStore {
  override async names() {
    const names = await super.names();
    return names.length > 0 ? [...names, 'evalflow_contract.stray'] : names;
  }
}

/** Lists the last of several configs under another name. */
export class RenamingStore extends InMemoryScoreConfigStore {
  override async names() {
    const names = await super.names();
    return names.length > 1 ? [...names.slice(0, -1), `${names.at(-1)}_renamed`] : names;
  }
}

/** Refuses to archive a name that is not `{type}.{field}`, which no config can have. */
export class StrictNameStore extends InMemoryScoreConfigStore {
  override async archive(name: string) {
    if (!/^[^.]+\.[^.]+$/.test(name)) throw new RangeError(`'${name}' is not a config name`);
    return super.archive(name);
  }
}

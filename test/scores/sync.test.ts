import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ScoreConfig,
  ScoreConfigSyncConflictError,
  ScoreMappingError,
  scoreConfigs,
  syncScoreConfigs,
} from '../../src/scores/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';

const Review = z.object({ stars: z.int().min(1).max(5), helpful: z.boolean(), note: z.string() });
const configs = scoreConfigs(Review, { typeName: 'review' });
const Old = z.object({ rating: z.int(), comment: z.string() });
const oldConfigs = scoreConfigs(Old, { typeName: 'old' });

/** Counts reads and records creates and archives, over the in-memory store. */
class WatchedStore extends InMemoryScoreConfigStore {
  reads = 0;
  created: string[] = [];
  archiveCalls: string[] = [];
  check?: (config: ScoreConfig) => void;
  override async statuses() {
    this.reads++;
    return super.statuses();
  }
  override async create(config: ScoreConfig) {
    this.created.push(config.name);
    return super.create(config);
  }
  override async archive(name: string) {
    this.archiveCalls.push(name);
    return super.archive(name);
  }
  /** Forgets the calls so far, keeping what the store holds. */
  forget() {
    this.reads = 0;
    this.created = [];
    this.archiveCalls = [];
  }
}

describe('syncScoreConfigs', () => {
  it('reads the statuses once and creates the missing configs in order', async () => {
    const store = new WatchedStore();
    await store.create(configs[1] as ScoreConfig);
    store.forget();
    expect(await syncScoreConfigs(store, configs)).toEqual({
      created: ['review.stars', 'review.note'],
      archived: [],
    });
    expect(store.reads).toBe(1);
    expect(store.created).toEqual(['review.stars', 'review.note']);
  });

  it('creates a name given twice once', async () => {
    const store = new WatchedStore();
    expect((await syncScoreConfigs(store, [...configs, ...configs])).created).toHaveLength(3);
    expect(store.created).toHaveLength(3);
  });

  it('never updates a config the store has, even one that differs', async () => {
    const store = new InMemoryScoreConfigStore();
    await syncScoreConfigs(store, configs);
    const changed = { ...(configs[0] as ScoreConfig), maximum: 10 };
    expect(await syncScoreConfigs(store, [changed])).toEqual({ created: [], archived: [] });
    expect(store.configs()[0]?.maximum).toBe(5);
  });

  it('checks every config to create before creating any', async () => {
    const store = new WatchedStore();
    store.check = (config: ScoreConfig) => {
      if (config.field === 'note') throw new ScoreMappingError('no notes here');
    };
    await expect(syncScoreConfigs(store, configs)).rejects.toThrow('no notes here');
    expect(store.created).toEqual([]);
  });

  it('archives the retired names still active, in order, once each, after creating', async () => {
    const store = new WatchedStore();
    await syncScoreConfigs(store, oldConfigs);
    store.forget();
    const retired = ['old.comment', 'never.created', 'old.rating', 'old.comment'];
    expect(await syncScoreConfigs(store, configs, { retired })).toEqual({
      created: ['review.stars', 'review.helpful', 'review.note'],
      archived: ['old.comment', 'old.rating'],
    });
    expect(store.archiveCalls).toEqual(['old.comment', 'old.rating']);
    expect(store.archived()).toEqual(['old.rating', 'old.comment']);
    expect(await store.names()).toEqual([
      'old.rating',
      'old.comment',
      'review.stars',
      'review.helpful',
      'review.note',
    ]);
  });

  it('does not report a name that another writer archived after the statuses were read', async () => {
    const store = new WatchedStore();
    await syncScoreConfigs(store, oldConfigs);
    const statuses = store.statuses.bind(store);
    store.statuses = async () => {
      const read = await statuses();
      await store.archive('old.rating'); // the other writer, between the read and the archive
      return read;
    };
    const retired = ['old.rating', 'old.comment'];
    expect(await syncScoreConfigs(store, [], { retired })).toEqual({
      created: [],
      archived: ['old.comment'],
    });
    expect(store.archived()).toEqual(['old.rating', 'old.comment']);
  });

  it('creates and archives nothing when the same sync runs again', async () => {
    const store = new WatchedStore();
    await syncScoreConfigs(store, oldConfigs);
    const retired = oldConfigs.map((config) => config.name);
    await syncScoreConfigs(store, configs, { retired });
    store.forget();
    expect(await syncScoreConfigs(store, configs, { retired })).toEqual({
      created: [],
      archived: [],
    });
    expect(store.created).toEqual([]);
    expect(store.archiveCalls).toEqual([]);
  });

  it('does not bring back an archived name declared again: configs are never updated', async () => {
    const store = new WatchedStore();
    await syncScoreConfigs(store, oldConfigs);
    await syncScoreConfigs(store, [], { retired: ['old.rating'] });
    store.forget();
    expect(await syncScoreConfigs(store, oldConfigs)).toEqual({ created: [], archived: [] });
    expect(store.created).toEqual([]);
    expect(store.archived()).toEqual(['old.rating']);
  });

  it('refuses a name both to create and to retire, before reading or sending anything', async () => {
    const store = new WatchedStore();
    await syncScoreConfigs(store, oldConfigs);
    store.forget();
    const retired = ['old.rating', 'review.note', 'review.stars'];
    const error = await syncScoreConfigs(store, configs, { retired }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScoreConfigSyncConflictError);
    expect(error).toMatchObject({
      name: 'ScoreConfigSyncConflictError',
      configNames: ['review.note', 'review.stars'],
      message: "score configs cannot be both created and retired: 'review.note', 'review.stars'",
    });
    expect(store.reads).toBe(0);
    expect(store.created).toEqual([]);
    expect(store.archiveCalls).toEqual([]);
    expect(store.archived()).toEqual([]);
  });
});

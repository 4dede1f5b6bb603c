import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ScoreConfig,
  ScoreMappingError,
  scoreConfigs,
  syncScoreConfigs,
} from '../../src/scores/index.js';
import { InMemoryScoreConfigStore } from '../../src/testing/index.js';

const Review = z.object({ stars: z.int().min(1).max(5), helpful: z.boolean(), note: z.string() });
const configs = scoreConfigs(Review, { typeName: 'review' });

/** Counts reads and records creates, over the in-memory store. */
class WatchedStore extends InMemoryScoreConfigStore {
  reads = 0;
  created: string[] = [];
  check?: (config: ScoreConfig) => void;
  override async names() {
    this.reads++;
    return super.names();
  }
  override async create(config: ScoreConfig) {
    this.created.push(config.name);
    return super.create(config);
  }
}

describe('syncScoreConfigs', () => {
  it('reads the names once and creates the missing configs in order', async () => {
    const store = new WatchedStore();
    await store.create(configs[1] as ScoreConfig);
    store.created = [];
    expect(await syncScoreConfigs(store, configs)).toEqual(['review.stars', 'review.note']);
    expect(store.reads).toBe(1);
    expect(store.created).toEqual(['review.stars', 'review.note']);
  });

  it('creates a name given twice once', async () => {
    const store = new WatchedStore();
    expect(await syncScoreConfigs(store, [...configs, ...configs])).toHaveLength(3);
    expect(store.created).toHaveLength(3);
  });

  it('never updates a config the store has, even one that differs', async () => {
    const store = new InMemoryScoreConfigStore();
    await syncScoreConfigs(store, configs);
    const changed = { ...(configs[0] as ScoreConfig), maximum: 10 };
    expect(await syncScoreConfigs(store, [changed])).toEqual([]);
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
});

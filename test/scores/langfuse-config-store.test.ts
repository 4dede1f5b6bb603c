import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ScoreConfig,
  ScoreMappingError,
  scoreConfigs,
  syncScoreConfigs,
} from '../../src/scores/index.js';
import { LangfuseScoreConfigStore, ScoreConfigNameError } from '../../src/scores/langfuse/index.js';
import { checkScoreConfigStore } from '../../src/testing/index.js';
import { START, useLangfuseServer } from './langfuse-support.js';

const Review = z.strictObject({
  stars: z.int().min(1).max(5).describe('How many stars'),
  helpful: z.boolean().describe(''),
  tone: z.enum(['formal', 'casual']),
  note: z.string(),
  score: z.number().gt(0),
});

describe('LangfuseScoreConfigStore', () => {
  const context = useLangfuseServer();
  const store = () => new LangfuseScoreConfigStore(context.server.client());

  it('passes the ScoreConfigStore contract against the Langfuse test server', async () => {
    await checkScoreConfigStore(store);
  });

  it('creates configs as Langfuse takes them: categories by index, bounds and descriptions only when set', async () => {
    await syncScoreConfigs(store(), scoreConfigs(Review, { typeName: 'review' }));
    const held = context.server
      .configs()
      .map(({ id: _, createdAt: _c, updatedAt: _u, projectId: _p, ...config }) => config);
    expect(held).toEqual([
      {
        name: 'review.stars',
        dataType: 'NUMERIC',
        isArchived: false,
        minValue: 1,
        maxValue: 5,
        description: 'How many stars',
      },
      {
        name: 'review.helpful',
        dataType: 'BOOLEAN',
        isArchived: false,
        categories: [
          { label: 'True', value: 1 },
          { label: 'False', value: 0 },
        ],
      },
      {
        name: 'review.tone',
        dataType: 'CATEGORICAL',
        isArchived: false,
        categories: [
          { label: 'formal', value: 0 },
          { label: 'casual', value: 1 },
        ],
      },
      { name: 'review.note', dataType: 'TEXT', isArchived: false },
      { name: 'review.score', dataType: 'NUMERIC', isArchived: false, minValue: 0 },
    ]);
    // What was left out was not sent as null either.
    expect(context.server.requests('scoreConfigs_create').map(({ body }) => body)).toEqual([
      {
        name: 'review.stars',
        dataType: 'NUMERIC',
        minValue: 1,
        maxValue: 5,
        description: 'How many stars',
      },
      { name: 'review.helpful', dataType: 'BOOLEAN' },
      {
        name: 'review.tone',
        dataType: 'CATEGORICAL',
        categories: [
          { label: 'formal', value: 0 },
          { label: 'casual', value: 1 },
        ],
      },
      { name: 'review.note', dataType: 'TEXT' },
      { name: 'review.score', dataType: 'NUMERIC', minValue: 0 },
    ]);
  });

  it('lists names over every page, archived configs included', async () => {
    const many = Array.from({ length: 130 }, (_, i) => ({
      ...(scoreConfigs(Review, { typeName: 'review' })[3] as ScoreConfig),
      name: `bulk.field_${i}`,
    }));
    await syncScoreConfigs(store(), many);
    await store().archive('bulk.field_7');
    const names = await store().names();
    expect(names).toHaveLength(130);
    expect(names).toContain('bulk.field_7');
    expect(context.server.requests('scoreConfigs_get').length).toBeGreaterThan(2);
  });

  it('archives by name and lists archived configs only when asked', async () => {
    await syncScoreConfigs(store(), scoreConfigs(Review, { typeName: 'review' }));
    expect(await store().archive('review.tone')).toBe(1);
    expect(await store().archive('review.tone')).toBe(0);
    const active = await store().list();
    const all = await store().list({ includeArchived: true });
    expect(active.map((c) => c.name)).not.toContain('review.tone');
    expect(all.find((c) => c.name === 'review.tone')).toMatchObject({
      isArchived: true,
      categories: ['formal', 'casual'],
    });
  });

  it('refuses a name too long for Langfuse, saying how to shorten it, and sends nothing', async () => {
    const configs = scoreConfigs(Review, { typeName: 'a_feedback_type_with_a_long_name' });
    const error = await store()
      .create(configs[0] as ScoreConfig)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScoreConfigNameError);
    expect((error as Error).message).toBe(
      "score config name 'a_feedback_type_with_a_long_name.stars' is 38 characters, and Langfuse " +
        'allows 1 to 35: register the type under a name of at most 29 characters ' +
        "('a_feedback_type_with_a_long_name' has 32)",
    );
    await expect(syncScoreConfigs(store(), configs)).rejects.toThrow(ScoreConfigNameError);
    expect(context.server.requests('scoreConfigs_create')).toEqual([]);
  });

  it('refuses a field name too long for any type name, saying to rename the field', () => {
    const field = 'f'.repeat(34);
    const [long] = scoreConfigs(z.object({ [field]: z.boolean() }), { typeName: 't' });
    expect(() => store().check(long as ScoreConfig)).toThrow(
      new ScoreConfigNameError(
        `score config name 't.${field}' is 36 characters, and Langfuse allows 1 to 35: ` +
          `rename the field '${field}' to at most 33 characters`,
      ),
    );
  });

  it('refuses a category config without categories, before sending', () => {
    const tone = scoreConfigs(Review, { typeName: 'review' }).find((c) => c.field === 'tone');
    expect(() => store().check({ ...(tone as ScoreConfig), categories: [] })).toThrow(
      new ScoreMappingError('score config review.tone: a category config needs categories'),
    );
  });

  it('counts a name active while any config of it is, whichever was archived', async () => {
    const [stars] = scoreConfigs(Review, { typeName: 'review' });
    const configs = store();
    await configs.create(stars as ScoreConfig);
    context.now += 1_000;
    await configs.create(stars as ScoreConfig);
    const [, newer] = await configs.list();
    await context.server
      .client()
      .api.scoreConfigs.update(newer?.id as string, { isArchived: true });
    expect(await configs.statuses()).toEqual(new Map([['review.stars', { archived: false }]]));
    expect(await configs.archive('review.stars')).toBe(1);
    expect(await configs.statuses()).toEqual(new Map([['review.stars', { archived: true }]]));
  });

  it('waits for an answer only as long as it is told to', async () => {
    context.server.injectFaults({ timeoutMs: 3_000 });
    const quick = new LangfuseScoreConfigStore(context.server.client(), { timeoutInSeconds: 0.2 });
    // No status: it gave up before the server's 504 at 3 s (the default waits 30 s).
    await expect(quick.names()).rejects.toMatchObject({ status: null, retryable: true });
  });

  it('refuses characters Langfuse does not allow in a name', () => {
    const [first] = scoreConfigs(Review, { typeName: 'review/v2' });
    expect(() => store().check(first as ScoreConfig)).toThrow(
      /characters Langfuse refuses \('\/'\)/,
    );
  });

  it('refuses bounds Langfuse cannot hold, before sending', () => {
    const Flat = z.object({ x: z.number().min(3).max(3) });
    const [flat] = scoreConfigs(Flat, { typeName: 'flat' });
    expect(() => store().check(flat as ScoreConfig)).toThrow(
      new ScoreMappingError(
        'score config flat.x: Langfuse needs a maximum above the minimum, got 3 to 3',
      ),
    );
    const [open] = scoreConfigs(z.object({ x: z.number().min(3) }), { typeName: 'open' });
    expect(() => store().check(open as ScoreConfig)).not.toThrow();
  });

  it('creates every missing config through syncScoreConfigs once, however often it runs', async () => {
    const configs = scoreConfigs(Review, { typeName: 'review' });
    expect((await syncScoreConfigs(store(), configs)).created).toHaveLength(5);
    expect(await syncScoreConfigs(store(), configs)).toEqual({ created: [], archived: [] });
    expect(context.server.configs()).toHaveLength(5);
  });

  it('archives retired configs through syncScoreConfigs once, however often it runs', async () => {
    const configs = scoreConfigs(Review, { typeName: 'review' });
    await syncScoreConfigs(store(), configs);
    const [stars, helpful, ...kept] = configs as [ScoreConfig, ScoreConfig, ...ScoreConfig[]];
    const retired = [stars.name, helpful.name];
    expect(await syncScoreConfigs(store(), kept, { retired })).toEqual({
      created: [],
      archived: retired,
    });
    expect(await syncScoreConfigs(store(), kept, { retired })).toEqual({
      created: [],
      archived: [],
    });
    expect(context.server.requests('scoreConfigs_update')).toHaveLength(2);
    expect(context.server.configs().map(({ name, isArchived }) => [name, isArchived])).toEqual([
      ['review.stars', true],
      ['review.helpful', true],
      ['review.tone', false],
      ['review.note', false],
      ['review.score', false],
    ]);
  });

  it('gives a name archived only once every config of it is, and archives them all', async () => {
    // Langfuse keeps names unique only where evalflow does: a name created twice has two configs.
    const [stars] = scoreConfigs(Review, { typeName: 'review' }) as [ScoreConfig];
    await store().create(stars);
    await store().create(stars);
    const [one] = await store().list();
    await context.server
      .client()
      .api.scoreConfigs.update((one as { id: string }).id, { isArchived: true });
    expect(await store().statuses()).toEqual(new Map([[stars.name, { archived: false }]]));
    expect(await store().archive(stars.name)).toBe(1);
    expect(await store().statuses()).toEqual(new Map([[stars.name, { archived: true }]]));
    await store().create(stars);
    await store().create(stars);
    expect(await store().archive(stars.name)).toBe(2);
    expect(await store().names()).toEqual([stars.name]);
  });

  it('lists each config whole, oldest first, with what Langfuse left unset as null or empty', async () => {
    const [stars, , tone] = scoreConfigs(Review, { typeName: 'review' }) as ScoreConfig[];
    const configs = store();
    await configs.create(stars as ScoreConfig);
    context.now += 1_000;
    await configs.create(tone as ScoreConfig);
    const ids = context.server.configs().map((config) => config.id);
    expect(await configs.list()).toEqual([
      {
        id: ids[0],
        name: 'review.stars',
        dataType: 'NUMERIC',
        isArchived: false,
        createdAt: new Date(START).toISOString(),
        minimum: 1,
        maximum: 5,
        categories: [],
        description: 'How many stars',
      },
      {
        id: ids[1],
        name: 'review.tone',
        dataType: 'CATEGORICAL',
        isArchived: false,
        createdAt: new Date(START + 1_000).toISOString(),
        minimum: null,
        maximum: null,
        categories: ['formal', 'casual'],
        description: null,
      },
    ]);
    expect([...(await configs.statuses()).keys()]).toEqual(['review.stars', 'review.tone']);
  });

  it('lists categories in the order of their values, whatever order Langfuse holds them in', async () => {
    await context.server.client().api.scoreConfigs.create({
      name: 'review.level',
      dataType: 'CATEGORICAL',
      categories: [
        { label: 'high', value: 2 },
        { label: 'low', value: 0 },
        { label: 'mid', value: 1 },
      ],
    });
    const [level] = await store().list();
    expect(level?.categories).toEqual(['low', 'mid', 'high']);
  });

  it('asks for each page of configs once and stops at the last', async () => {
    const gets = () => context.server.requests('scoreConfigs_get').length;
    expect(await store().list()).toEqual([]);
    expect(gets()).toBe(1);
    const note = scoreConfigs(Review, { typeName: 'review' })[3] as ScoreConfig;
    const full = Array.from({ length: 100 }, (_, i) => ({ ...note, name: `page.field_${i}` }));
    await syncScoreConfigs(store(), full);
    let before = gets();
    expect(await store().list()).toHaveLength(100);
    expect(gets() - before).toBe(1);
    await store().create({ ...note, name: 'page.field_100' });
    before = gets();
    expect(await store().list()).toHaveLength(101);
    expect(gets() - before).toBe(2);
  });

  it('gives the oldest active config of a name as the one scores link to', async () => {
    const [stars] = scoreConfigs(Review, { typeName: 'review' }) as [ScoreConfig];
    const configs = store();
    await configs.create(stars);
    context.now += 1_000;
    await configs.create(stars);
    const [older] = context.server.configs();
    expect(await configs.activeIds()).toEqual(new Map([[stars.name, older?.id]]));
  });

  it('takes a config bounded above only, however low the bound', () => {
    for (const bound of [0, -1]) {
      const [capped] = scoreConfigs(z.object({ x: z.number().max(bound) }), { typeName: 'cap' });
      expect(capped).toMatchObject({ minimum: null, maximum: bound });
      expect(() => store().check(capped as ScoreConfig)).not.toThrow();
    }
  });

  it('names each refused character once and the characters a name may use', () => {
    const [first] = scoreConfigs(Review, { typeName: 'review/v2!/' });
    expect(() => store().check(first as ScoreConfig)).toThrow(
      new ScoreConfigNameError(
        "score config name 'review/v2!/.stars' has characters Langfuse refuses ('/', '!'); " +
          "names use letters, digits, '_', ' ', '.', '(', ')' and '-'",
      ),
    );
  });

  it('advises a one-character type name when the field leaves room for just that', () => {
    const field = 'f'.repeat(33);
    const [long] = scoreConfigs(z.object({ [field]: z.boolean() }), { typeName: 'tt' });
    expect(() => store().check(long as ScoreConfig)).toThrow(
      new ScoreConfigNameError(
        `score config name 'tt.${field}' is 36 characters, and Langfuse allows 1 to 35: ` +
          "register the type under a name of at most 1 characters ('tt' has 2)",
      ),
    );
  });
});

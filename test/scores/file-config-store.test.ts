import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileScoreConfigStore, ScoreConfigFileError } from '../../src/scores/file/index.js';
import {
  type ScoreConfig,
  ScoreConfigExistsError,
  scoreConfigs,
  syncScoreConfigs,
} from '../../src/scores/index.js';
import { checkScoreConfigStore, contractConfigs } from '../../src/testing/index.js';

const [rating, resolved] = contractConfigs() as [ScoreConfig, ScoreConfig, ...ScoreConfig[]];

describe('FileScoreConfigStore', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-configs-'));
    path = join(dir, '.evalflow', 'score-configs.jsonl');
  });
  // For tests that write the file by hand.
  const inDir = () => mkdir(join(dir, '.evalflow'));
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const lines = async () =>
    (await readFile(path, 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));

  it('passes the ScoreConfigStore contract', async () => {
    await checkScoreConfigStore(() => new FileScoreConfigStore(path));
  });

  it('appends one line per create and archive, and a new store over the file replays them', async () => {
    const store = new FileScoreConfigStore(path);
    await store.create(rating);
    await store.create(resolved);
    await store.archive(rating.name);
    expect(await lines()).toEqual([
      { op: 'create', config: rating },
      { op: 'create', config: resolved },
      { op: 'archive', name: rating.name },
    ]);
    const reopened = new FileScoreConfigStore(path);
    expect(await reopened.configs()).toEqual([rating, resolved]);
    expect(await reopened.statuses()).toEqual(
      new Map([
        [rating.name, { archived: true }],
        [resolved.name, { archived: false }],
      ]),
    );
  });

  it('writes only the config’s own fields', async () => {
    await new FileScoreConfigStore(path).create({ ...rating, extra: 'x' } as ScoreConfig);
    expect(await lines()).toEqual([{ op: 'create', config: rating }]);
  });

  it('refuses to create a name it holds, archived or not, writing nothing', async () => {
    const store = new FileScoreConfigStore(path);
    await store.create(rating);
    await store.archive(rating.name);
    const before = await readFile(path, 'utf8');
    await expect(store.create({ ...rating, maximum: 10 })).rejects.toThrow(
      new ScoreConfigExistsError(rating.name),
    );
    expect(await readFile(path, 'utf8')).toBe(before);
  });

  it('creates a name once when two creates of it race on one store', async () => {
    const store = new FileScoreConfigStore(path);
    const results = await Promise.allSettled([store.create(rating), store.create(rating)]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect(await lines()).toHaveLength(1);
  });

  it('archives a name once when two archives of it race on one store', async () => {
    const store = new FileScoreConfigStore(path);
    await store.create(rating);
    expect(await Promise.all([store.archive(rating.name), store.archive(rating.name)])).toEqual([
      1, 0,
    ]);
    expect(await lines()).toHaveLength(2);
  });

  it('holds nothing while the file does not exist, and creates its folder on the first write', async () => {
    const store = new FileScoreConfigStore(path);
    expect(await store.names()).toEqual([]);
    expect(await store.archive(rating.name)).toBe(0);
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await syncScoreConfigs(store, [rating])).toEqual({
      created: [rating.name],
      archived: [],
    });
    expect(await syncScoreConfigs(store, [rating])).toEqual({ created: [], archived: [] });
  });

  it('refuses a file with a line it would not have written, naming the line', async () => {
    const store = new FileScoreConfigStore(path);
    await store.create(rating);
    await appendFile(path, '{"op":"rename","name":"x"}\n');
    const error = await store.names().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScoreConfigFileError);
    expect(error).toMatchObject({ path, line: 2 });
    expect((error as Error).message).toMatch(`${path}:2: not a score config entry (`);
    // A line that is JSON but no entry at all names the entry as what is wrong.
    await writeFile(path, '[1]\n');
    await expect(store.names()).rejects.toThrow(`${path}:1: not a score config entry (entry: `);
    await writeFile(path, 'not json\n');
    await expect(store.statuses()).rejects.toThrow(
      `${path}:1: not a score config entry (not JSON)`,
    );
  });

  it('refuses a file that archives a name it never created, or creates one twice', async () => {
    const store = new FileScoreConfigStore(path);
    await inDir();
    await writeFile(path, `${JSON.stringify({ op: 'archive', name: 'a.b' })}\n`);
    await expect(store.names()).rejects.toThrow("archives 'a.b', which is not created above");
    const create = JSON.stringify({ op: 'create', config: rating });
    await writeFile(path, `${create}\n${create}\n`);
    await expect(store.create(resolved)).rejects.toThrow(
      `${path}:2: not a score config entry (creates '${rating.name}' again)`,
    );
    expect(await readFile(path, 'utf8')).toBe(`${create}\n${create}\n`);
  });

  it('keeps a category config’s categories, in order, through the file', async () => {
    const [tone] = scoreConfigs(z.object({ tone: z.enum(['formal', 'casual']) }), {
      typeName: 'review',
    }) as [ScoreConfig];
    await new FileScoreConfigStore(path).create(tone);
    expect(await lines()).toEqual([
      { op: 'create', config: expect.objectContaining({ categories: ['formal', 'casual'] }) },
    ]);
    expect(await new FileScoreConfigStore(path).configs()).toEqual([tone]);
  });

  it('reads the last line of a file written by hand without a final newline', async () => {
    await inDir();
    const create = JSON.stringify({ op: 'create', config: rating });
    await writeFile(path, `${create}\n${JSON.stringify({ op: 'archive', name: rating.name })}`);
    const store = new FileScoreConfigStore(path);
    expect(await store.statuses()).toEqual(new Map([[rating.name, { archived: true }]]));
    await writeFile(path, `${create}\n{"op":"rename"}`);
    await expect(store.names()).rejects.toMatchObject({ line: 2 });
  });

  it('names every field a bad line gets wrong, by its path', async () => {
    await inDir();
    const bad = { ...rating, minimum: 'low', categories: 'none' };
    await writeFile(path, `${JSON.stringify({ op: 'create', config: bad })}\n`);
    const error = (await new FileScoreConfigStore(path).names().catch((e: unknown) => e)) as
      | ScoreConfigFileError
      | undefined;
    expect(error).toBeInstanceOf(ScoreConfigFileError);
    expect(error?.problem).toMatch(/^config\.minimum: [^;]+; config\.categories: [^;]+$/);
  });
});

import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonlScoreSink } from '../../src/scores/file/jsonl-sink.js';
import { checkScoreSink } from '../../src/testing/index.js';

describe('JsonlScoreSink', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const score = (id: string, value: number) =>
    ({ id, name: 'q.n', value, dataType: 'NUMERIC', sessionId: 's', source: {} }) as const;

  it('passes the ScoreSink contract', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-jsonl-'));
    dirs.push(dir);
    await checkScoreSink(
      () => new JsonlScoreSink(join(dir, 'scores.jsonl')),
      async (sink) => (await sink.all()).values(),
    );
  });

  it('reads back the latest score of each id asked for, and leaves out the rest', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-jsonl-'));
    dirs.push(dir);
    const sink = new JsonlScoreSink(join(dir, 'scores.jsonl'));
    await sink.record([score('a', 1), score('b', 2), score('c', 3)]);
    await sink.record([score('a', 4)]);
    await sink.delete(['c']);
    const found = await sink.read(['a', 'c', 'never']);
    expect([...found]).toEqual([['a', score('a', 4)]]);
  });

  it('appends one line per record and delete, in the file’s format', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-jsonl-'));
    dirs.push(dir);
    const path = join(dir, 'scores.jsonl');
    const sink = new JsonlScoreSink(path);
    await sink.record([score('a', 1), score('b', 2)]);
    await sink.delete(['a']);
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line))).toEqual([
      { op: 'record', score: score('a', 1) },
      { op: 'record', score: score('b', 2) },
      { op: 'delete', id: 'a' },
    ]);
    expect(lines.at(-1)).toBe('');
  });

  it('writes nothing, not even the file, for no scores and no ids', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-jsonl-'));
    dirs.push(dir);
    const path = join(dir, 'new', 'scores.jsonl');
    const sink = new JsonlScoreSink(path);
    await sink.record([]);
    await sink.delete([]);
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await sink.all()).size).toBe(0);
  });

  it('fails a read it cannot make rather than reading nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'evalflow-jsonl-'));
    dirs.push(dir);
    // A folder where the file should be: only a missing file reads as empty.
    const path = join(dir, 'scores.jsonl');
    await mkdir(path);
    await expect(new JsonlScoreSink(path).read(['a'])).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

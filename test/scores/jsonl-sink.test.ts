import { mkdtemp, rm } from 'node:fs/promises';
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
    const score = (id: string, value: number) =>
      ({ id, name: 'q.n', value, dataType: 'NUMERIC', sessionId: 's', source: {} }) as const;
    await sink.record([score('a', 1), score('b', 2), score('c', 3)]);
    await sink.record([score('a', 4)]);
    await sink.delete(['c']);
    const found = await sink.read(['a', 'c', 'never']);
    expect([...found]).toEqual([['a', score('a', 4)]]);
  });
});

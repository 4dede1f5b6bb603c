import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
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
});

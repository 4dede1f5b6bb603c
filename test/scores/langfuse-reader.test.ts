import { describe, expect, it } from 'vitest';
import { LangfuseScoreReader, LangfuseScoreSink } from '../../src/scores/langfuse/index.js';
import { score, trace, useLangfuseServer } from './langfuse-support.js';

describe('LangfuseScoreReader', () => {
  const context = useLangfuseServer();

  it('reads scores back whole: type, trace, span, session, time and metadata', async () => {
    const client = context.server.client();
    const recorded = [
      score('n', { evaluator: 'judge', version: '2', confidence: 0.25, source: { tenant: 't1' } }),
      score('b', { dataType: 'BOOLEAN', value: false, spanId: '00f067aa0ba902b7' }),
      score('c', {
        dataType: 'CATEGORICAL',
        value: 'warm',
        traceId: undefined,
        sessionId: 'thread-9',
      }),
    ];
    await new LangfuseScoreSink(client).record(recorded);
    const read = await new LangfuseScoreReader(client).read(['n', 'b', 'c', 'missing']);
    expect([...read.keys()].sort()).toEqual(['b', 'c', 'n']);
    expect(read.get('n')).toEqual(recorded[0]);
    expect(read.get('b')).toEqual(recorded[1]);
    expect(read.get('c')).toEqual(recorded[2]);
  });

  it('does not see a score until Langfuse has stored it', async () => {
    context.server.setLag(30_000);
    const client = context.server.client();
    await new LangfuseScoreSink(client).record([score('late')]);
    const reader = new LangfuseScoreReader(client);
    expect((await reader.read(['late'])).size).toBe(0);
    context.now += 30_000;
    expect((await reader.read(['late'])).size).toBe(1);
  });

  it('reads many ids over several requests and cursor pages', async () => {
    const client = context.server.client();
    const many = Array.from({ length: 260 }, (_, i) => score(`s${i}`, { value: i }));
    await new LangfuseScoreSink(client).record(many);
    const read = await new LangfuseScoreReader(client).read(many.map((s) => s.id));
    expect(read.size).toBe(260);
    expect(context.server.requests('scoresV3_getManyV3').length).toBeGreaterThanOrEqual(6);
    const all = await new LangfuseScoreReader(client).list();
    expect(all).toHaveLength(260);
  });

  it('returns the latest row of an id Langfuse holds twice', async () => {
    const client = context.server.client();
    const sink = new LangfuseScoreSink(client);
    await sink.record([score('twice', { value: 1 })]);
    context.now += 1_000;
    await sink.record([score('twice', { value: 2, timestamp: '2026-09-30T10:00:00.000Z' })]);
    const reader = new LangfuseScoreReader(client);
    expect(await reader.list()).toHaveLength(2);
    expect((await reader.read(['twice'])).get('twice')?.value).toBe(2);
  });

  it('reads only the scores of its environment, when it has one', async () => {
    const client = context.server.client();
    await new LangfuseScoreSink(client, { environment: 'staging' }).record([score('staged')]);
    await new LangfuseScoreSink(client).record([score('default')]);
    const staging = new LangfuseScoreReader(client, { environment: 'staging' });
    expect((await staging.list()).map((s) => s.id)).toEqual(['staged']);
    expect([...(await staging.read(['staged', 'default'])).keys()]).toEqual(['staged']);
    const everywhere = new LangfuseScoreReader(client);
    expect((await everywhere.list()).map((s) => s.id).sort()).toEqual(['default', 'staged']);
  });

  it("leaves out Langfuse's corrections, which are no scores of evalflow's", async () => {
    const client = context.server.client();
    await new LangfuseScoreSink(client).record([score('kept')]);
    await client.api.ingestion.batch({
      batch: [
        {
          id: 'correction-event',
          type: 'score-create',
          timestamp: '2026-09-29T10:00:00.000Z',
          body: {
            id: 'fix',
            traceId: trace,
            name: 'output',
            value: 'better',
            dataType: 'CORRECTION',
          },
        },
      ],
    });
    expect(
      context.server
        .scores()
        .map((row) => row.id)
        .sort(),
    ).toEqual(['fix', 'kept']);
    const reader = new LangfuseScoreReader(client);
    expect((await reader.list()).map((s) => s.id)).toEqual(['kept']);
    expect((await reader.read(['fix', 'kept'])).size).toBe(1);
  });

  it('refuses an id the filter cannot express', async () => {
    await expect(new LangfuseScoreReader(context.server.client()).read(['a,b'])).rejects.toThrow(
      /cannot be empty or hold a comma/,
    );
  });
});

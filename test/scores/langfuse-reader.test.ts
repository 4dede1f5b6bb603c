import { describe, expect, it } from 'vitest';
import { InvalidScoreError } from '../../src/scores/index.js';
import {
  LangfuseScoreReader,
  LangfuseScoreSink,
  scoreFromLangfuse,
} from '../../src/scores/langfuse/index.js';
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

  const reads = () => context.server.requests('scoresV3_getManyV3').length;

  it('refuses an empty id or ids with commas, naming each, and asks Langfuse nothing', async () => {
    const reader = new LangfuseScoreReader(context.server.client());
    const refusal = async (ids: string[]) => {
      const error = await reader.read(ids).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidScoreError);
      return error as InvalidScoreError;
    };
    const empty = await refusal(['ok', '']);
    expect(empty.problems).toEqual(['score ids cannot be empty or hold a comma: ']);
    const commas = await refusal(['a,b', 'ok', 'c,d']);
    const problem = 'score ids cannot be empty or hold a comma: a,b | c,d';
    expect(commas.message).toBe(problem);
    expect(commas.problems).toEqual([problem]);
    expect(reads()).toBe(0);
  });

  it('reads nothing, asking Langfuse nothing, for no ids', async () => {
    const client = context.server.client();
    await new LangfuseScoreSink(client).record([score('held')]);
    expect(await new LangfuseScoreReader(client).read([])).toEqual(new Map());
    expect(reads()).toBe(0);
  });

  it('reads only the ids asked for', async () => {
    const client = context.server.client();
    await new LangfuseScoreSink(client).record([score('asked'), score('other')]);
    const read = await new LangfuseScoreReader(client).read(['asked']);
    expect([...read.keys()]).toEqual(['asked']);
  });

  it('reads any number of long ids, keeping each request short enough for the server', async () => {
    const client = context.server.client();
    const ids = Array.from(
      { length: 600 },
      (_, i) => `${String(i).padStart(4, '0')}-${'x'.repeat(40)}`,
    );
    await new LangfuseScoreSink(client).record([score(ids[599] as string)]);
    const read = await new LangfuseScoreReader(client).read(ids);
    expect([...read.keys()]).toEqual([ids[599]]);
  });

  it('returns the row updated last even when Langfuse lists it after another', async () => {
    const client = context.server.client();
    const sink = new LangfuseScoreSink(client);
    // Langfuse lists newest timestamp first: the later write, on an earlier day, comes second.
    await sink.record([score('moved', { value: 1, timestamp: '2026-09-30T10:00:00.000Z' })]);
    expect(context.server.scores()).toHaveLength(1);
    context.now += 1_000;
    await sink.record([score('moved', { value: 2, timestamp: '2026-09-29T10:00:00.000Z' })]);
    const reader = new LangfuseScoreReader(client);
    expect((await reader.list()).map((s) => s.value)).toEqual([1, 2]);
    expect((await reader.read(['moved'])).get('moved')?.value).toBe(2);
  });

  it('waits for an answer only as long as it is told to', async () => {
    context.server.injectFaults({ timeoutMs: 3_000 });
    const quick = new LangfuseScoreReader(context.server.client(), { timeoutInSeconds: 0.2 });
    // No status: it gave up before the server's 504 at 3 s (the default waits 30 s).
    await expect(quick.read(['a'])).rejects.toMatchObject({ status: null, retryable: true });
  });
});

describe('scoreFromLangfuse', () => {
  type Row = Parameters<typeof scoreFromLangfuse>[0];
  const row = (overrides: Record<string, unknown>): Row =>
    ({
      id: 'r1',
      projectId: 'p',
      name: 'review.stars',
      dataType: 'NUMERIC',
      value: 4,
      source: 'API',
      timestamp: '2026-09-29T10:00:00.000Z',
      environment: 'default',
      createdAt: '2026-09-29T10:00:00.000Z',
      updatedAt: '2026-09-29T10:00:00.000Z',
      ...overrides,
    }) as Row;
  const bare = {
    id: 'r1',
    name: 'review.stars',
    value: 4,
    dataType: 'NUMERIC',
    timestamp: '2026-09-29T10:00:00.000Z',
    source: {},
  };

  it('reads a row without a subject, or with none Langfuse gives, as attached to nothing', () => {
    expect(scoreFromLangfuse(row({}))).toStrictEqual(bare);
    expect(scoreFromLangfuse(row({ subject: null }))).toStrictEqual(bare);
  });

  it('reads an experiment subject as attached to nothing evalflow scores', () => {
    expect(scoreFromLangfuse(row({ subject: { kind: 'experiment', id: 'run-1' } }))).toStrictEqual(
      bare,
    );
  });

  it('reads an observation without a parent trace as a span alone', () => {
    const subject = { kind: 'observation', id: '00f067aa0ba902b7', traceId: null };
    expect(scoreFromLangfuse(row({ subject }))).toStrictEqual({
      ...bare,
      spanId: '00f067aa0ba902b7',
    });
  });

  it('reads metadata values that are not strings as JSON text', () => {
    const metadata = { tenant: 7, flags: { a: true }, evaluator: ['judge'], confidence: '0.5' };
    expect(scoreFromLangfuse(row({ metadata }))).toStrictEqual({
      ...bare,
      evaluator: '["judge"]',
      confidence: 0.5,
      source: { tenant: '7', flags: '{"a":true}' },
    });
  });
});

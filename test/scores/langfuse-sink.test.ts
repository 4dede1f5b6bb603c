import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  InvalidScoreError,
  type ScoreConfig,
  ScoreSinkError,
  scoreConfigs,
  syncScoreConfigs,
} from '../../src/scores/index.js';
import {
  LangfuseIngestionError,
  LangfuseRequestError,
  LangfuseScoreConfigStore,
  LangfuseScoreReader,
  LangfuseScoreSink,
} from '../../src/scores/langfuse/index.js';
import { checkScoreSink, contractConfigs } from '../../src/testing/index.js';
import type { Fault } from '../support/langfuse-server/index.js';
import { score, trace, useLangfuseServer } from './langfuse-support.js';

describe('LangfuseScoreSink', () => {
  const context = useLangfuseServer();

  it('passes the ScoreSink contract against the Langfuse test server', async () => {
    const client = context.server.client();
    await checkScoreSink(
      () => new LangfuseScoreSink(client),
      () => new LangfuseScoreReader(client).list(),
    );
  });

  it('passes the contract with its scores linked to configs Langfuse validates them by', async () => {
    const client = context.server.client();
    const configs = new LangfuseScoreConfigStore(client);
    await syncScoreConfigs(configs, contractConfigs());
    await checkScoreSink(
      () => new LangfuseScoreSink(client, { linkConfigs: configs }),
      () => new LangfuseScoreReader(client).list(),
    );
    expect(context.server.dropped()).toEqual([]);
    expect(context.server.scores().every((row) => row.configId !== null)).toBe(true);
  });

  it('passes the contract when Langfuse shows writes late, for a reader that waits out the lag', async () => {
    const client = context.server.client();
    context.server.setLag(45_000);
    await checkScoreSink(
      () => new LangfuseScoreSink(client),
      async () => {
        context.now += 45_000;
        return new LangfuseScoreReader(client).list();
      },
    );
  });

  it('sends score-create events with the score id as body.id and its time as the event time', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    await sink.record([score('s1', { timestamp: '2026-09-29T14:30:00+02:00' })]);
    const [row] = context.server.scores();
    expect(row).toMatchObject({ id: 's1', timestamp: '2026-09-29T12:30:00.000Z', traceId: trace });
    expect(context.server.requests()).toMatchObject([
      { operationId: 'ingestion_batch', status: 207 },
    ]);
  });

  it('sends a yes or no as 1 or 0, and a span as the observation', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    await sink.record([
      score('yes', { dataType: 'BOOLEAN', value: true, spanId: '00f067aa0ba902b7' }),
      score('no', { dataType: 'BOOLEAN', value: false }),
    ]);
    expect(context.server.scores().map((row) => [row.id, row.value, row.observationId])).toEqual([
      ['yes', 1, '00f067aa0ba902b7'],
      ['no', 0, null],
    ]);
  });

  it('attaches a score with a trace to the trace, and one without to its session', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    await sink.record([
      score('both', { sessionId: 'thread-1' }),
      score('session', { traceId: undefined, sessionId: 'thread-1' }),
    ]);
    expect(context.server.scores().map((row) => [row.traceId, row.sessionId])).toEqual([
      [trace, null],
      [null, 'thread-1'],
    ]);
  });

  it('replaces the stored score when it is recorded again', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    await sink.record([score('s1')]);
    context.now += 60_000;
    await sink.record([score('s1', { value: 2 })]);
    expect(context.server.scores().map((row) => row.value)).toEqual([2]);
  });

  it('sends nothing for no scores', async () => {
    await new LangfuseScoreSink(context.server.client()).record([]);
    expect(context.server.requests()).toEqual([]);
  });

  it('refuses a batch with a score that has neither trace nor session, sending nothing', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    const loose = score('loose', { traceId: undefined });
    await expect(sink.record([score('s1'), loose])).rejects.toThrow(InvalidScoreError);
    await expect(sink.record([score('s1'), loose])).rejects.toThrow(
      /review\.stars \(loose\): Langfuse attaches a score to a trace or a session/,
    );
    expect(context.server.requests()).toEqual([]);
  });

  it('refuses a score of the wrong shape or a text Langfuse cannot hold, sending nothing', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    await expect(sink.record([score('s1', { value: 'four' })])).rejects.toThrow(InvalidScoreError);
    const long = score('t', { dataType: 'TEXT', value: 'x'.repeat(501) });
    await expect(sink.record([long])).rejects.toThrow(/1 to 500 characters/);
    expect(context.server.requests()).toEqual([]);
  });

  it('splits a large call into batches under the size limit, in order', async () => {
    const sink = new LangfuseScoreSink(context.server.client(), { maxBatchBytes: 100_000 });
    const many = Array.from({ length: 1500 }, (_, i) => score(`s${i}`, { value: i }));
    await sink.record(many);
    const requests = context.server.requests('ingestion_batch');
    expect(requests.length).toBeGreaterThan(3);
    expect(context.server.scores().map((row) => row.id)).toEqual(many.map((s) => s.id));
  });

  it('throws every event Langfuse refused, after sending every batch', async () => {
    const sink = new LangfuseScoreSink(context.server.client(), { environment: 'langfuse-prod' });
    const error = await sink.record([score('a'), score('b')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangfuseIngestionError);
    const ingestion = error as LangfuseIngestionError;
    expect(ingestion.failures.map((f) => [f.scoreId, f.status, f.retryable])).toEqual([
      ['a', 400, false],
      ['b', 400, false],
    ]);
    expect(ingestion.retryable).toBe(false);
    expect(ingestion.message).toMatch(/^Langfuse refused 2 of 2 scores: review\.stars \(a\): 400/);
  });

  it('marks refused events retryable when Langfuse failed them with a 5xx', async () => {
    context.server.injectFaults({ operationId: 'ingestion_batch', eventStatus: 500 });
    const sink = new LangfuseScoreSink(context.server.client());
    const error = await sink.record([score('a')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangfuseIngestionError);
    expect((error as LangfuseIngestionError).retryable).toBe(true);
  });

  it("words a refusal from Langfuse's error when it gives no message, and names an unknown event", async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    const refusal = (fault: Partial<Fault>) => {
      context.server.injectFaults({ operationId: 'ingestion_batch', eventStatus: 400, ...fault });
      return sink.record([score('a')]).catch((e: unknown) => e) as Promise<LangfuseIngestionError>;
    };
    const bare = await refusal({ eventMessage: null, eventError: { code: 'bad_value' } });
    expect(bare.failures).toEqual([
      {
        scoreId: 'a',
        name: 'review.stars',
        status: 400,
        message: '{"code":"bad_value"}',
        retryable: false,
      },
    ]);
    const silent = await refusal({ eventMessage: null, eventError: null });
    expect(silent.failures[0]?.message).toBe('');
    const stranger = await refusal({ eventId: 'not-sent' });
    expect(stranger.failures[0]).toMatchObject({ scoreId: 'not-sent', name: 'unknown score' });
  });

  it("surfaces a 429's Retry-After to the caller and leaves retrying to it", async () => {
    context.server.injectFaults({ status: 429, retryAfterSeconds: 2 });
    const sink = new LangfuseScoreSink(context.server.client());
    const error = await sink.record([score('a')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangfuseRequestError);
    expect(error).toBeInstanceOf(ScoreSinkError);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 2000 });
    expect(context.server.requests()).toHaveLength(1);
    await sink.record([score('a')]);
    expect(context.server.scores()).toHaveLength(1);
  });

  it('names the request that failed, for every request the adapters make', async () => {
    const client = context.server.client();
    const configs = new LangfuseScoreConfigStore(client);
    const [config] = contractConfigs();
    await configs.create(config as ScoreConfig);
    const failing = async (operationId: string, call: () => Promise<unknown>) => {
      context.server.injectFaults({ operationId, status: 503 });
      return call().catch((e: unknown) => e);
    };
    const calls: [string, string, () => Promise<unknown>][] = [
      [
        'ingestion_batch',
        'POST /api/public/ingestion',
        () => new LangfuseScoreSink(client).record([score('a')]),
      ],
      [
        'legacy_scoreV1_delete',
        'DELETE /api/public/scores/{id}',
        () => new LangfuseScoreSink(client).delete(['a']),
      ],
      [
        'scoresV3_getManyV3',
        'GET /api/public/v3/scores',
        () => new LangfuseScoreReader(client).list(),
      ],
      ['scoreConfigs_get', 'GET /api/public/score-configs', () => configs.names()],
      [
        'scoreConfigs_create',
        'POST /api/public/score-configs',
        () => configs.create(config as ScoreConfig),
      ],
      [
        'scoreConfigs_update',
        'PATCH /api/public/score-configs/{id}',
        () => configs.archive((config as ScoreConfig).name),
      ],
    ];
    for (const [operationId, operation, call] of calls) {
      const error = await failing(operationId, call);
      expect(error, operationId).toBeInstanceOf(LangfuseRequestError);
      expect(error, operationId).toMatchObject({ operation, status: 503 });
      expect((error as Error).message).toMatch(
        new RegExp(`^${operation.replace(/[{}]/g, '\\$&')} failed with HTTP 503`),
      );
    }
  });

  it('reports a 5xx as retryable, without retrying it itself', async () => {
    context.server.injectFaults({ status: 503 });
    const sink = new LangfuseScoreSink(context.server.client());
    await expect(sink.record([score('a')])).rejects.toMatchObject({
      status: 503,
      retryable: true,
      retryAfterMs: undefined,
    });
    expect(context.server.requests()).toHaveLength(1);
  });

  it('reports a timeout as retryable with no status', async () => {
    context.server.injectFaults({ timeoutMs: 3_000 });
    const sink = new LangfuseScoreSink(context.server.client(), { timeoutInSeconds: 0.2 });
    const error = await sink.record([score('a')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangfuseRequestError);
    expect(error).toMatchObject({ status: null, retryable: true });
    expect((error as Error).message).toMatch(/got no response \(timeout or network error\)/);
  });

  it('keeps one score when a write landed but its answer was lost and it is sent again', async () => {
    context.server.injectFaults({ status: 502, applied: true });
    const sink = new LangfuseScoreSink(context.server.client());
    await expect(sink.record([score('a')])).rejects.toMatchObject({ retryable: true });
    await sink.record([score('a')]);
    expect(context.server.scores().map((row) => row.id)).toEqual(['a']);
  });

  it('reports wrong keys as a terminal error', async () => {
    const { LangfuseClient } = await import('@langfuse/client');
    const client = new LangfuseClient({
      publicKey: context.server.publicKey,
      secretKey: 'sk-lf-wrong',
      baseUrl: context.server.url,
    });
    await expect(new LangfuseScoreSink(client).record([score('a')])).rejects.toMatchObject({
      status: 401,
      retryable: false,
    });
  });

  it('links scores to the active config of their name, so Langfuse drops one that breaks it', async () => {
    const client = context.server.client();
    const configs = new LangfuseScoreConfigStore(client);
    await syncScoreConfigs(configs, contractConfigs());
    const sink = new LangfuseScoreSink(client, { linkConfigs: configs });
    const rating = score('r', { name: 'evalflow_contract.rating', value: 9 });
    const tone = score('t', {
      name: 'evalflow_contract.tone',
      dataType: 'CATEGORICAL',
      value: 'warm',
    });
    await sink.record([rating, tone]);
    expect(context.server.scores().map((row) => row.id)).toEqual(['t']);
    expect(context.server.dropped().map((d) => [d.score.id, d.reason])).toEqual([
      ['r', 'above maximum'],
    ]);
  });

  it('lets Langfuse drop scores for a config archived after the sink linked it', async () => {
    const client = context.server.client();
    const configs = new LangfuseScoreConfigStore(client);
    await syncScoreConfigs(configs, contractConfigs());
    const sink = new LangfuseScoreSink(client, { linkConfigs: configs });
    const rating = score('r', { name: 'evalflow_contract.rating', value: 3 });
    await sink.record([rating]);
    await configs.archive('evalflow_contract.rating');
    await sink.record([{ ...rating, id: 'r2' }]);
    expect(context.server.dropped().map((d) => d.reason)).toEqual([
      'config evalflow_contract.rating is archived',
    ]);
  });

  it('deletes scores by id; Langfuse applies it later and an unknown id is no error', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    await sink.record([score('a'), score('b')]);
    context.server.setLag(5_000);
    await sink.delete(['a', 'never-recorded']);
    expect(context.server.scores().map((row) => row.id)).toEqual(['a', 'b']);
    context.now += 5_000;
    expect(context.server.scores().map((row) => row.id)).toEqual(['b']);
    expect(context.server.requests('legacy_scoreV1_delete').map((r) => r.status)).toEqual([
      202, 404,
    ]);
  });

  it('reports a failed delete as a typed error', async () => {
    const sink = new LangfuseScoreSink(context.server.client());
    context.server.injectFaults({ status: 429, retryAfterSeconds: 30 });
    await expect(sink.delete(['a'])).rejects.toMatchObject({
      retryable: true,
      retryAfterMs: 30_000,
    });
  });

  it('lists configs again for a name it has not looked up, even beside names it has', async () => {
    const client = context.server.client();
    const configs = new LangfuseScoreConfigStore(client);
    const Review = z.object({ stars: z.int().min(1).max(5), tone: z.enum(['formal', 'casual']) });
    const [stars, tone] = scoreConfigs(Review, { typeName: 'review' }) as [
      ScoreConfig,
      ScoreConfig,
    ];
    await configs.create(stars);
    const sink = new LangfuseScoreSink(client, { linkConfigs: configs });
    await sink.record([score('s1')]);
    // A config made after the sink first listed them, as another process might.
    await configs.create(tone);
    const formal = score('t1', { name: tone.name, dataType: 'CATEGORICAL', value: 'formal' });
    await sink.record([score('s2'), formal]);
    const ids = await configs.activeIds();
    expect(context.server.scores().map((row) => [row.id, row.configId])).toEqual([
      ['s1', ids.get(stars.name)],
      ['s2', ids.get(stars.name)],
      ['t1', ids.get(tone.name)],
    ]);
  });
});

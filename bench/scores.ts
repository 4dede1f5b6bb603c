// `npm run bench:scores`: the scores module's throughput, each figure a ratio against a baseline
// measured in the same process, so the machine's speed cancels out.
//
// 1. scoreValues against bare schema.safeParse on the same 100k feedback values (goal ≥ 0.5×).
// 2. LangfuseScoreSink against one `POST /api/public/scores` per score, both through the real
//    @langfuse/client to the Langfuse test server (which checks every request and answer against
//    the OpenAPI spec): scores per HTTP request (goal ≥ 100) and throughput (goal ≥ 20×).
//
// Ends with one JSON line: {"bench":"scores","mapping_vs_parse":R,"scores_per_request":N,
// "sink_vs_single_post":R}.
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { type Score, scoreId, scoreValues } from '../src/scores/index.js';
import { LangfuseScoreSink } from '../src/scores/langfuse/index.js';
import { LangfuseTestServer } from '../test/support/langfuse-server/index.js';

const VALUES = 100_000;
const SINK_SCORES = 20_000;
const SINGLE_POSTS = 500;
const ROUNDS = 3;
const MAPPING_ROUNDS = 6;

const AnswerQuality = z.strictObject({
  rating: z.int().min(1).max(5).describe('Overall quality'),
  on_topic: z.boolean(),
  tone: z.enum(['formal', 'casual']).default('formal'),
  comment: z.string().nullable().default(null),
  tags: z.array(z.string()).default([]),
});
const typeName = 'answer_quality';

/** A small deterministic generator, so every run measures the same values. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function values(count: number): unknown[] {
  const random = generator(42);
  return Array.from({ length: count }, (_, i) =>
    AnswerQuality.parse({
      rating: 1 + Math.floor(random() * 5),
      on_topic: random() < 0.5,
      tone: random() < 0.5 ? 'formal' : 'casual',
      comment: random() < 0.3 ? null : `comment ${i} ${'x'.repeat(Math.floor(random() * 80))}`,
      tags: random() < 0.5 ? [] : ['a', 'b'],
    }),
  );
}

/** The fastest of a few rounds, in milliseconds: the least disturbed by the rest of the machine. */
async function fastest(rounds: number, run: () => unknown): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    await run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

async function mappingVersusParse(): Promise<number> {
  const inputs = values(VALUES);
  let sink = 0;
  const parse = () => {
    for (const value of inputs) if (AnswerQuality.safeParse(value).success) sink++;
  };
  const map = () => {
    for (const value of inputs) sink += scoreValues(AnswerQuality, value, { typeName }).length;
  };
  // Rounds alternate, so a busy moment on the machine slows both sides alike.
  let parseMs = Number.POSITIVE_INFINITY;
  let mapMs = Number.POSITIVE_INFINITY;
  for (let round = 0; round < MAPPING_ROUNDS; round++) {
    parseMs = Math.min(parseMs, await fastest(1, parse));
    mapMs = Math.min(mapMs, await fastest(1, map));
  }
  console.log(
    `safeParse: ${rate(VALUES, parseMs)} values/s; scoreValues: ${rate(VALUES, mapMs)} values/s` +
      ` (${sink > 0 ? 'checked' : 'unchecked'})`,
  );
  return parseMs / mapMs;
}

function scoresOf(count: number, prefix: string): Score[] {
  const inputs = values(Math.ceil(count / 3));
  const scores: Score[] = [];
  inputs.forEach((value, i) => {
    for (const { config, value: scored } of scoreValues(AnswerQuality, value, { typeName })) {
      scores.push({
        id: scoreId(`${prefix}-${i}`, config.name),
        name: config.name,
        value: scored,
        dataType: config.dataType,
        sessionId: `thread-${i % 500}`,
        timestamp: '2026-09-29T12:00:00.000Z',
        source: { tenant_id: 'bench', actor: `user:${i % 97}` },
      });
    }
  });
  return scores.slice(0, count);
}

async function sinkVersusSinglePost(): Promise<{ perRequest: number; ratio: number }> {
  const server = await LangfuseTestServer.start();
  try {
    const client = server.client();
    const requestOptions = { maxRetries: 0, timeoutInSeconds: 60 };
    const warm = scoresOf(200, 'warm');
    await new LangfuseScoreSink(client).record(warm);
    for (const score of warm.slice(0, 20)) {
      await client.api.scores.create(singlePost(score), requestOptions);
    }

    const single = scoresOf(SINGLE_POSTS, 'single');
    const singleMs = await fastest(ROUNDS, async () => {
      for (const score of single) await client.api.scores.create(singlePost(score), requestOptions);
    });

    const batched = scoresOf(SINK_SCORES, 'sink');
    const before = server.requests('ingestion_batch').length;
    // Every round sends the same scores again, which Langfuse upserts in place.
    const sinkMs = await fastest(ROUNDS, () => new LangfuseScoreSink(client).record(batched));
    const requests = (server.requests('ingestion_batch').length - before) / ROUNDS;
    if (server.violations().length > 0) throw new Error(server.violations().join('\n'));
    const stored = new Set(server.scores().map((row) => row.id));
    if (!batched.every((score) => stored.has(score.id))) throw new Error('the sink lost scores');

    const singleRate = SINGLE_POSTS / singleMs;
    const sinkRate = SINK_SCORES / sinkMs;
    console.log(
      `POST /scores one by one: ${rate(SINGLE_POSTS, singleMs)} scores/s; ` +
        `LangfuseScoreSink: ${rate(SINK_SCORES, sinkMs)} scores/s in ${requests} requests a call`,
    );
    return { perRequest: SINK_SCORES / requests, ratio: sinkRate / singleRate };
  } finally {
    await server.close();
  }
}

function singlePost(score: Score) {
  return {
    id: score.id,
    name: score.name,
    value: typeof score.value === 'boolean' ? Number(score.value) : score.value,
    dataType: score.dataType,
    sessionId: score.sessionId,
    metadata: score.source,
  };
}

function rate(count: number, ms: number): string {
  return Math.round((count / ms) * 1000).toLocaleString('en-US');
}

const round2 = (n: number) => Math.round(n * 100) / 100;

const mapping = await mappingVersusParse();
const { perRequest, ratio } = await sinkVersusSinglePost();
console.log(
  `mapping ${round2(mapping)}× safeParse (goal ≥ 0.5); ${Math.round(perRequest)} scores per ` +
    `request (goal ≥ 100); sink ${round2(ratio)}× single posts (goal ≥ 20)`,
);
console.log(
  JSON.stringify({
    bench: 'scores',
    mapping_vs_parse: round2(mapping),
    scores_per_request: Math.round(perRequest),
    sink_vs_single_post: round2(ratio),
  }),
);

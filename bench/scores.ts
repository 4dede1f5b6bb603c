// `npm run bench:scores`: the scores module's throughput, each figure a ratio against a baseline
// measured in the same process, so the machine's speed cancels out.
//
// 1. scoreValues against bare schema.safeParse on the same 100k feedback values (goal ≥ 0.5×).
// 2. The mirror's mapping of stored, validated feedback (scoreValidatedValues) against
//    safeParse of the same values (`mirror_mapping_vs_parse`, goal ≥ 5).
// 3. Against the seeds' Python library: evalr 0.1.0's `score_values`, installed from PyPI into a
//    virtual environment of the bench's own (Python ≥ 3.12), on the same type (generated from one
//    declaration as a zod schema and a pydantic model) and the same validated values:
//    `mapping_vs_evalr` is scoreValidatedValues, the same job as score_values (goal ≥ 3);
//    `checked_mapping_vs_evalr` is scoreValues, which also checks every scored field. Skipped,
//    with a line saying why, when no Python ≥ 3.12 is found.
//    `mixed_checked_vs_evalr` (goal ≥ 2): scoreValues against evalr on a mixed workload
//    (bench/mixed-workload.ts): 300 types of every declaration kind, each used 1–50 times,
//    their values interleaved. The two libraries must give the same number of scores.
// 4. LangfuseScoreSink against one `POST /api/public/scores` per score, both through the real
//    @langfuse/client to the Langfuse test server (which checks every request and answer against
//    the OpenAPI spec): scores per HTTP request (goal ≥ 100) and throughput (goal ≥ 20×).
//
// Ends with one JSON line: {"bench":"scores","mapping_vs_parse":R,"mirror_mapping_vs_parse":R,
// "mapping_vs_evalr":R|null,"checked_mapping_vs_evalr":R|null,"mixed_checked_vs_evalr":R|null,
// "scores_per_request":N,"sink_vs_single_post":R}.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Score, scoreId, scoreValidatedValues, scoreValues } from '../src/scores/index.js';
import { LangfuseScoreSink } from '../src/scores/langfuse/index.js';
import { LangfuseTestServer } from '../test/support/langfuse-server/index.js';
import { evalrPython } from './evalr-venv.js';
import { type MixedItem, mixedWorkload } from './mixed-workload.js';
import { pydanticSourceOf, type TypeDeclaration, zodSchemaOf } from './score-declarations.js';
import { generator } from './seeded-random.js';

const VALUES = 100_000;
const SINK_SCORES = 20_000;
const SINGLE_POSTS = 500;
const ROUNDS = 3;
// Many short rounds: on a busy machine, the fastest of them is the least disturbed.
const MAPPING_ROUNDS = 20;
const MIXED_DECLARATIONS = 300;
// Its rounds are short (8k values): more of them, so one falls in a quiet moment on a busy machine.
const MIXED_ROUNDS = 100;

const declaration: TypeDeclaration = {
  className: 'AnswerQuality',
  fields: [
    { name: 'rating', kind: 'rating', min: 1, max: 5, description: 'Overall quality' },
    { name: 'on_topic', kind: 'flag' },
    { name: 'tone', kind: 'choice', choices: ['formal', 'casual'], default: 'formal' },
    { name: 'comment', kind: 'note' },
    { name: 'tags', kind: 'tags' },
  ],
};
const AnswerQuality = zodSchemaOf(declaration);
const typeName = 'answer_quality';

/** Values as give_feedback stores them: parsed by the type's schema, then kept as JSON. */
function values(count: number): unknown[] {
  const random = generator(42);
  return Array.from({ length: count }, (_, i) =>
    stored({
      rating: 1 + Math.floor(random() * 5),
      on_topic: random() < 0.5,
      tone: random() < 0.5 ? 'formal' : 'casual',
      comment: random() < 0.3 ? null : `comment ${i} ${'x'.repeat(Math.floor(random() * 80))}`,
      tags: random() < 0.5 ? [] : ['a', 'b'],
    }),
  );
}

const stored = (raw: unknown): unknown => JSON.parse(JSON.stringify(AnswerQuality.parse(raw)));

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

interface MappingTimes {
  parseMs: number;
  checkedMs: number;
  validatedMs: number;
  scores: number;
}

/** The fastest of MAPPING_ROUNDS alternating rounds of each, so a busy moment slows all alike. */
function mappingTimes(inputs: readonly unknown[]): MappingTimes {
  let sink = 0;
  let scores = 0;
  const parse = () => {
    for (const value of inputs) if (AnswerQuality.safeParse(value).success) sink++;
  };
  const checked = () => {
    for (const value of inputs) sink += scoreValues(AnswerQuality, value, { typeName }).length;
  };
  const validated = () => {
    scores = 0;
    for (const value of inputs) {
      scores += scoreValidatedValues(AnswerQuality, value, { typeName }).length;
    }
  };
  const times = { parseMs: Infinity, checkedMs: Infinity, validatedMs: Infinity };
  const timed = (run: () => void) => {
    const start = performance.now();
    run();
    return performance.now() - start;
  };
  for (let round = 0; round < MAPPING_ROUNDS; round++) {
    times.parseMs = Math.min(times.parseMs, timed(parse));
    times.checkedMs = Math.min(times.checkedMs, timed(checked));
    times.validatedMs = Math.min(times.validatedMs, timed(validated));
  }
  if (sink === 0) throw new Error('nothing was mapped');
  console.log(
    `safeParse: ${rate(inputs.length, times.parseMs)} values/s; scoreValues: ` +
      `${rate(inputs.length, times.checkedMs)} values/s; scoreValidatedValues (the mirror's): ` +
      `${rate(inputs.length, times.validatedMs)} values/s`,
  );
  return { ...times, scores };
}

/** evalr's score_values on the same values, or null (with a line saying why) when skipped. */
function evalrTimes(
  declarations: readonly TypeDeclaration[],
  items: readonly (readonly [className: string, typeName: string, value: unknown])[],
  rounds: number,
): { ms: number; scores: number } | null {
  const venv = evalrPython();
  if ('skipped' in venv) {
    console.log(`evalr comparison skipped: ${venv.skipped}`);
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), 'evalflow-bench-evalr-'));
  try {
    const sourcePath = join(dir, 'models.py');
    const itemsPath = join(dir, 'items.json');
    writeFileSync(sourcePath, pydanticSourceOf(declarations));
    writeFileSync(itemsPath, JSON.stringify(items));
    const out = execFileSync(venv.python, [
      join(import.meta.dirname, 'evalr_score_values.py'),
      sourcePath,
      itemsPath,
      String(rounds),
    ]);
    const result = JSON.parse(out.toString().trim().split('\n').at(-1) ?? '') as {
      ms: number;
      scores: number;
    };
    console.log(`evalr score_values: ${rate(items.length, result.ms)} values/s`);
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The mixed workload's checked mapping (scoreValues, as the single type's `checked`): the fastest
 * of MIXED_ROUNDS rounds over every item, in milliseconds, and the scores one round gives.
 */
function mixedCheckedTimes(items: readonly MixedItem[]): { ms: number; scores: number } {
  let ms = Infinity;
  let scores = 0;
  for (let round = 0; round < MIXED_ROUNDS; round++) {
    const start = performance.now();
    scores = 0;
    for (const { schema, typeName, value } of items) {
      scores += scoreValues(schema, value, { typeName }).length;
    }
    ms = Math.min(ms, performance.now() - start);
  }
  console.log(
    `mixed workload: ${items.length} values of ${MIXED_DECLARATIONS} types; scoreValues: ` +
      `${rate(items.length, ms)} values/s`,
  );
  return { ms, scores };
}

/** evalr on the mixed workload's items; throws when it does not give the same scores. */
function mixedVersusEvalr(items: readonly MixedItem[]): number | null {
  const checked = mixedCheckedTimes(items);
  const declarations = [...new Set(items.map((item) => item.declaration))];
  const evalr = evalrTimes(
    declarations,
    items.map((item) => [item.declaration.className, item.typeName, item.value] as const),
    MIXED_ROUNDS,
  );
  if (evalr === null) return null;
  sameJob(evalr.scores, checked.scores);
  return round2(evalr.ms / checked.ms);
}

function sameJob(evalrScores: number, evalflowScores: number) {
  if (evalrScores !== evalflowScores) {
    throw new Error(
      `evalr gave ${evalrScores} scores, evalflow ${evalflowScores}: not the same job`,
    );
  }
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

const inputs = values(VALUES);
const mapping = mappingTimes(inputs);
const evalr = evalrTimes(
  [declaration],
  inputs.map((value) => [declaration.className, typeName, value] as const),
  MAPPING_ROUNDS,
);
if (evalr !== null) sameJob(evalr.scores, mapping.scores);
const mixedVsEvalr = mixedVersusEvalr(mixedWorkload(MIXED_DECLARATIONS));
const { perRequest, ratio } = await sinkVersusSinglePost();
const mappingVsParse = round2(mapping.parseMs / mapping.checkedMs);
const mirrorVsParse = round2(mapping.parseMs / mapping.validatedMs);
const vsEvalr = evalr === null ? null : round2(evalr.ms / mapping.validatedMs);
const checkedVsEvalr = evalr === null ? null : round2(evalr.ms / mapping.checkedMs);
console.log(
  `mapping ${mappingVsParse}× safeParse (goal ≥ 0.5); the mirror's ${mirrorVsParse}× safeParse ` +
    `(goal ≥ 5); against evalr: ${vsEvalr ?? 'skipped'}× (goal ≥ 3), checked ` +
    `${checkedVsEvalr ?? 'skipped'}×; mixed checked ${mixedVsEvalr ?? 'skipped'}× evalr ` +
    `(goal ≥ 2); ${Math.round(perRequest)} scores per request (goal ≥ 100); ` +
    `sink ${round2(ratio)}× single posts (goal ≥ 20)`,
);
console.log(
  JSON.stringify({
    bench: 'scores',
    mapping_vs_parse: mappingVsParse,
    mirror_mapping_vs_parse: mirrorVsParse,
    mapping_vs_evalr: vsEvalr,
    checked_mapping_vs_evalr: checkedVsEvalr,
    mixed_checked_vs_evalr: mixedVsEvalr,
    scores_per_request: Math.round(perRequest),
    sink_vs_single_post: round2(ratio),
  }),
);

// bench:tune's second part — a tuned version's backtest previewed, then run, on the dev server.
//
// In one process: a worker with the real activities over a SQLite store, and a local stand-in for
// an OpenAI-compatible judge (no model can run here). The stand-in bills its tokens as a BPE
// tokenizer roughly does, not in proportion to characters: a word of up to 6 letters is one token,
// each further 6 letters one more, each digit run and punctuation mark one, and each message 4
// more. Its verdict fails an answer an example in the prompt taught as failing, so the candidate's
// replies differ from its base's where it learned. The flow is the one an author runs:
//   1. the base judge (llm_judge@1) judges every answer in a backfill;
//   2. one reviewer fails the wrong answers (a fifth);
//   3. a candidate is tuned from them (seeded split, 30 % held out, 8 examples);
//   4. its backtest over the held-out targets is previewed, then run;
//   5. a second candidate (another seed, 12 examples) is tuned, previewed and run: its preview
//      has the first's calls to learn from (what an added message costs beyond its characters).
// It reports each preview's cost against what its backtest spent.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../src/cli/supervision/setup.js';
import { executableOption } from '../src/cli/supervision/temporal-binaries.js';
import { createFeedbackTypeRegistry, targetKey } from '../src/core/index.js';
import { judgeVerdictFeedback, llmJudgeEvaluator } from '../src/evaluators/index.js';
import { prepareTuning } from '../src/evidence/index.js';
import type { BackfillSelection } from '../src/store/index.js';
import { previewReevaluation, ReevaluationClient } from '../src/workflow-clients/index.js';
import { review } from '../test/cli/fixtures/tuning.config.js';
import { given, testEngine } from '../test/support/engine.js';
import { type ChatRequest, readChat, taughtFailing } from '../test/support/stand-in-judge.js';

const ws = 'bench';
const taskQueue = 'bench-tune-backtest';
const pricing = { grader: { inputPerMillionUsd: 2.5, outputPerMillionUsd: 10 } };

/** One candidate's backtest: its preview's cost against what it spent. */
export interface CandidateFigures {
  held_out: number;
  examples: number;
  preview_usd: number;
  spent_usd: number;
  error_pct: number;
}

/** The first candidate, with nothing to learn from, and a second, tuned after its backtest. */
export interface BacktestPreviewFigures {
  answers: number;
  first: CandidateFigures;
  second: CandidateFigures;
}

/** The stand-in's tokens for one text (see the file's head). */
const tokensOf = (text: string) =>
  (text.match(/[A-Za-z]+|\d+|[^\sA-Za-z\d]/g) ?? []).reduce(
    (sum, word) => sum + (/^[A-Za-z]/.test(word) ? Math.ceil(word.length / 6) : 1),
    0,
  );

/** Fails the judged answer when an example before it taught the same answer as failing. */
function verdictOf({ messages }: ChatRequest) {
  const failing = taughtFailing(messages);
  const words = (messages.at(-1)?.content ?? '').split(/\s+/).length;
  return {
    score: failing ? 0 : 1,
    passed: !failing,
    reasoning: `${failing ? 'as taught, it fails' : 'it answers'} in ${words} words`,
  };
}

/** An answer of 20 to 120 words; every fifth wrong, in words a wrong one repeats. */
function answerOf(i: number): string {
  const words = 20 + ((i * 37) % 101);
  const wrong = i % 5 === 0;
  const body = Array.from({ length: words }, (_, w) =>
    wrong
      ? `wrong${w % 3}`
      : ['the', 'answer', 'explains', 'carefully', 'why', 'it', 'holds'][w % 7],
  ).join(' ');
  return `Q${i}: what holds? A: ${body}.`;
}

export async function backtestPreviewError(answers: number): Promise<BacktestPreviewFigures> {
  const endpoint = createServer(async (request, response) => {
    const chat = await readChat(request);
    const content = JSON.stringify(verdictOf(chat));
    const prompt = chat.messages.reduce((sum, m) => sum + 4 + tokensOf(m.content), 3);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        choices: [{ message: { role: 'assistant', content } }],
        usage: { prompt_tokens: prompt, completion_tokens: tokensOf(content) },
      }),
    );
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const engine = testEngine({
    evaluators: [llmJudgeEvaluator({ baseUrl, model: 'grader', targets: ['message'] })],
    feedbackTypes: [review],
    pricing,
  });
  const binaries = await ensureTemporalBinaries();
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: executableOption(binaries.cli), ip: '127.0.0.1' },
  });
  try {
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await bundleWorkflowCode({
        workflowsPath: fileURLToPath(new URL('../src/workflows/index.ts', import.meta.url)),
        logger: new DefaultLogger('WARN'),
      }),
      activities: engine.activities,
    });
    return await worker.runUntil(() => tuneAndBacktest(engine, env, answers));
  } finally {
    await env.teardown();
    await engine.close();
    endpoint.close();
  }
}

async function tuneAndBacktest(
  engine: ReturnType<typeof testEngine>,
  env: TestWorkflowEnvironment,
  answers: number,
): Promise<BacktestPreviewFigures> {
  const batches = new ReevaluationClient(
    env.client,
    engine.store,
    taskQueue,
    engine.evaluators,
    {},
    engine.store.judgeVersions,
  );
  const messages = Array.from({ length: answers }, (_, i) => i + 1);
  await given(
    engine.store,
    ws,
    { type: 'create_thread', thread_id: 't' },
    ...messages.map((i) => ({
      type: 'post_message',
      thread_id: 't',
      message_id: `m${i}`,
      role: 'assistant',
      content: answerOf(i),
    })),
  );
  const batch = async (batchId: string, evaluator: string, selection: BackfillSelection) => {
    await batches.start(ws, { selection, evaluators: [evaluator], concurrency: 16, batchId });
    await batches.watch(ws, batchId, () => {}, 100);
  };
  await batch('base', 'llm_judge@1', { kind: 'message', threadIds: ['t'] });
  for (const i of messages) {
    const outcome = await engine.store.execute({
      workspace_id: ws,
      actor: { kind: 'reviewer', id: 'ana' },
      command: {
        type: 'give_feedback',
        feedback_type: 'review',
        target: { kind: 'message', thread_id: 't', message_id: `m${i}`, run_id: null },
        value: { passed: i % 5 !== 0 },
      },
    });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  }
  const first = await tunedAndBacktested(engine, batch, { seed: 36, maxExamples: 8 });
  const second = await tunedAndBacktested(engine, batch, { seed: 7, maxExamples: 12 });
  return { answers, first, second };
}

type Batch = (batchId: string, evaluator: string, selection: BackfillSelection) => Promise<void>;

/** A candidate tuned from llm_judge@1, its backtest previewed, then run. */
async function tunedAndBacktested(
  engine: ReturnType<typeof testEngine>,
  batch: Batch,
  options: { seed: number; maxExamples: number },
): Promise<CandidateFigures> {
  const app = {
    feedbackTypes: createFeedbackTypeRegistry([judgeVerdictFeedback, review]),
    evaluators: engine.evaluators,
  };
  const { command } = await prepareTuning(engine.store, app, {
    workspaceId: ws,
    base: 'llm_judge@1',
    against: 'reviewers:review.passed',
    ...options,
    by: { kind: 'user', id: 'bench' },
    now: new Date(),
  });
  await given(engine.store, ws, command);
  const { version, heldOut, examples } = command.judge_version;
  const candidate = `llm_judge@${version}`;
  const selection = { kind: 'message' as const, targets: heldOut };
  const preview = await previewReevaluation(
    { store: engine.store, evaluators: engine.evaluators, limits: {}, pricing },
    ws,
    { selection, evaluators: [candidate] },
  );
  await batch(`backtest-${version}`, candidate, selection);
  const [spent] = await engine.store.usage.spend(
    { workspace_id: ws, generation: `backtest-${version}` },
    [],
  );
  const spentNanos = spent?.cost_nanos ?? 0;
  if (preview.costNanos === null) throw new Error(`no preview of ${candidate}'s cost`);
  if (spent?.evaluations !== heldOut.length) throw new Error('the backtest fell short');
  if (examples.some((e) => heldOut.some((t) => targetKey(t) === targetKey(e.target))))
    throw new Error('a held-out target is an example');
  return {
    held_out: heldOut.length,
    examples: examples.length,
    preview_usd: preview.costNanos / 1e9,
    spent_usd: spentNanos / 1e9,
    error_pct: (Math.abs(preview.costNanos - spentNanos) / spentNanos) * 100,
  };
}

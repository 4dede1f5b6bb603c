// An app whose evaluators are judge-bound, for tests and `npm run bench:scale`: three turn
// judges, each awaiting EVALFLOW_TEST_JUDGE_MS of I/O (default 200 ms) as an LLM call would. The
// judge endpoint takes EVALFLOW_TEST_JUDGE_CONCURRENCY calls at once from each process (default
// 4), as a client with a fixed connection pool does; so one worker's throughput is bounded by
// that and the latency, not by the CPU, and each worker process adds its own share.
import { setTimeout as sleep } from 'node:timers/promises';
// From the package, as an app imports it: the sources in a checkout, dist/ for the compiled CLI.
import { defineConfig, defineEvaluator, defineFeedbackType } from 'evalflow';
import { z } from 'zod';

const latencyMs = Number(process.env.EVALFLOW_TEST_JUDGE_MS ?? 200);
const connections = Number(process.env.EVALFLOW_TEST_JUDGE_CONCURRENCY ?? 4);

/** A semaphore: the judge endpoint's connections from this process. */
let inFlight = 0;
const queue: (() => void)[] = [];
async function callJudge(): Promise<void> {
  if (inFlight >= connections) await new Promise<void>((resolve) => queue.push(resolve));
  else inFlight++;
  try {
    await sleep(latencyMs);
  } finally {
    const next = queue.shift();
    if (next) next();
    else inFlight--;
  }
}

const judged = defineFeedbackType({
  name: 'judged',
  targets: ['turn'],
  schema: z.object({ ok: z.boolean() }),
});

const judge = (name: string) =>
  defineEvaluator({
    name,
    version: '1',
    feedbackType: judged,
    targets: ['turn'],
    source: 'JUDGE',
    evaluate: async () => {
      await callJudge();
      return { ok: true };
    },
  });

export default defineConfig({
  feedbackTypes: [judged],
  evaluators: [judge('judge_a'), judge('judge_b'), judge('judge_c')],
});

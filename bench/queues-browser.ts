// bench:queues, the browser's half: how long a reviewer waits in Chromium between sending a
// verdict and seeing the next item, and what the page weighs.
//
// The page is built as `npm run build:ui` builds it (into dist/ui, where the API serves it from)
// and served by the demo's engine (a dev server, a worker with its relays, a SQLite store and the
// API, in one process). A reviewer signs in from a link and works through BENCH_QUEUE_ITEMS
// answers with the keyboard, reading each for BENCH_READ_MS first (a person reads for seconds;
// the page uses that time to claim and read the next item). The page measures each submit to
// the next item on screen itself (`evalflow:next-item`, a performance measure from the submit to
// the render that shows the next item), and each verdict's recording, which goes on meanwhile
// (`evalflow:verdict-recorded`). The baseline is the same work without reading ahead, in this
// process: through the HTTP client, a submit, then a claim, then the item's view, one after the
// other, on a queue of its own. Its figures: next_item_p95_ms (goal ≤ 150), its ratio to the
// baseline's p95, verdict_recorded_p95_ms, and ui_gzip_kb (the page's JavaScript and CSS
// gzipped, goal ≤ 150).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildUi } from '../scripts/build-ui.js';
import { startDemoEngine } from '../src/cli/demo/demo-stack.js';
import { EvalflowClient } from '../src/client/index.js';
import { launchChromium } from '../test/support/browser.js';
import { workbenchApp } from '../test/support/workbench-app.js';

const ITEMS = Number(process.env.BENCH_QUEUE_ITEMS ?? 40);
const READ_MS = Number(process.env.BENCH_READ_MS ?? 400);
const WORKSPACE = 'bench';

export interface BrowserFigures {
  next_item_p95_ms: number;
  next_item_median_ms: number;
  verdict_recorded_p95_ms: number;
  sequential_p95_ms: number;
  next_item_vs_sequential: number;
  ui_gzip_kb: number;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ??
  0;
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The answers reviewers judge: a question and an answer in a run of their own, each queued. */
async function seed(system: EvalflowClient, agent: EvalflowClient, queueId: string, from: number) {
  const targets = [];
  for (let i = from; i < from + ITEMS; i++) {
    const threadId = `t${i}`;
    const runId = `r${i}`;
    await agent.createThread({ threadId, title: `Refund for order ${i}` });
    await agent.startRun(threadId, {
      runId,
      traceId: `${'cd'.repeat(14)}${i.toString(16).padStart(4, '0')}`,
    });
    await agent.postMessage(threadId, {
      role: 'ROLE_USER',
      content: `Where is order ${i}?`,
      runId,
    });
    const answer = await agent.postMessage(threadId, {
      role: 'ROLE_ASSISTANT',
      content: `Order ${i} was refunded today; it shows in 3 to 5 days.`,
      runId,
    });
    await agent.endRun(runId, { status: 'completed' });
    targets.push({ kind: 'message' as const, threadId, messageId: answer.messageId });
  }
  await system.reviewQueues.add(queueId, { targets });
}

export async function browserFigures(
  log: (line: string) => void = console.log,
): Promise<BrowserFigures> {
  const built = await buildUi();
  log(`the page: ${built.scriptAndStyleGzipKb} KB of JavaScript and CSS gzipped`);
  const home = mkdtempSync(join(tmpdir(), 'evalflow-bench-queues-'));
  const engine = await startDemoEngine({
    app: workbenchApp,
    home,
    abandonAfterMs: 600_000,
    log: () => {},
  });
  const browser = await launchChromium();
  try {
    const client = (principal: string) =>
      engine
        .key(WORKSPACE, principal)
        .then((apiKey) => new EvalflowClient({ baseUrl: engine.url, apiKey }));
    const [system, agent, alan] = await Promise.all([
      client('system'),
      client('agent'),
      client('reviewer:alan'),
    ]);
    await seed(system, agent, 'answers', 0);
    await seed(system, agent, 'pairs', ITEMS);

    // The baseline: no reading ahead, each step after the one before.
    const sequential: number[] = [];
    const parts = { submit: [] as number[], claim: [] as number[], read: [] as number[] };
    const timed = async <T>(into: number[], work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      const result = await work();
      into.push(performance.now() - started);
      return result;
    };
    let claimed = (await alan.reviewQueues.claim('pairs')).item;
    let view = claimed && (await alan.reviewQueues.item('pairs', claimed.itemId));
    while (claimed !== null && view !== null) {
      const { itemId } = claimed;
      const { configId } = view.queue;
      await sleep(READ_MS);
      const started = performance.now();
      await timed(parts.submit, () =>
        alan.reviewQueues.submit('pairs', itemId, {
          value: { verdict: 'pass', stars: 4, note: '' },
          configId,
        }),
      );
      claimed = (await timed(parts.claim, () => alan.reviewQueues.claim('pairs'))).item;
      const next = claimed;
      view = next && (await timed(parts.read, () => alan.reviewQueues.item('pairs', next.itemId)));
      sequential.push(performance.now() - started);
    }
    log(
      `without reading ahead, medians: submit ${round(percentile(parts.submit, 0.5))} ms, claim ` +
        `${round(percentile(parts.claim, 0.5))} ms, item view ${round(percentile(parts.read, 0.5))} ms`,
    );

    // The page, with the keyboard: 1 (pass), 4 stars, Ctrl+Enter.
    const link = await system.reviewers.signIn('grace');
    const page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 } })
    ).newPage();
    await page.goto(`${engine.url}${link.path}`);
    await page.locator('[data-testid=queues] button:focus').waitFor();
    await page.keyboard.press('Enter');
    for (let i = 0; i < ITEMS; i++) {
      const item = page.getByTestId('item');
      await item.waitFor();
      const shown = await item.getAttribute('data-item-id');
      await sleep(READ_MS);
      await page.keyboard.press('1');
      await page.keyboard.type('4');
      await page.keyboard.press('Control+Enter');
      await page
        .locator(`[data-testid=item]:not([data-item-id="${shown}"])`)
        .or(page.getByTestId('queue-empty'))
        .waitFor();
    }
    const durations = async (name: string) =>
      (await page.evaluate(
        `performance.getEntriesByName(${JSON.stringify(name)}).map((entry) => entry.duration)`,
      )) as number[];
    const measured = await durations('evalflow:next-item');
    // The verdicts' own round trips, which the reviewer no longer waits for: all of them.
    let recorded = await durations('evalflow:verdict-recorded');
    for (const deadline = Date.now() + 30_000; recorded.length < ITEMS && Date.now() < deadline; ) {
      await sleep(100);
      recorded = await durations('evalflow:verdict-recorded');
    }
    if (recorded.length !== ITEMS) {
      throw new Error(`${recorded.length} of ${ITEMS} verdicts were recorded`);
    }
    if (measured.length !== ITEMS - 1) {
      throw new Error(`the page measured ${measured.length} submits, not ${ITEMS - 1}`);
    }
    const p95 = percentile(measured, 0.95);
    const baseline = percentile(sequential, 0.95);
    log(
      `submit → next item on screen, ${measured.length} items: median ${round(percentile(measured, 0.5))} ms, ` +
        `p95 ${round(p95)} ms (goal ≤ 150); without reading ahead (submit, claim, read, over HTTP): ` +
        `p95 ${round(baseline)} ms; ratio ${round(p95 / baseline, 2)}; each verdict recorded by the ` +
        `API meanwhile: p95 ${round(percentile(recorded, 0.95))} ms`,
    );
    return {
      next_item_p95_ms: round(p95),
      next_item_median_ms: round(percentile(measured, 0.5)),
      verdict_recorded_p95_ms: round(percentile(recorded, 0.95)),
      sequential_p95_ms: round(baseline),
      next_item_vs_sequential: round(p95 / baseline, 2),
      ui_gzip_kb: built.scriptAndStyleGzipKb,
    };
  } finally {
    await browser.close();
    await engine.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

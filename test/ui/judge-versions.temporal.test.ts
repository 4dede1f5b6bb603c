import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvalflowClient } from '../../src/client/index.js';
import { defineConfig } from '../../src/config/index.js';
import { llmJudgeEvaluator } from '../../src/evaluators/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import { figure, intervalText, windowOf } from '../../src/ui/evaluators-data.js';
import { issueCredential } from '../../src/wire/credentials.js';
import { signInPath } from '../../src/wire/page.js';
import { review } from '../cli/fixtures/tuning.config.js';
import type { ApiHarness } from '../support/api.js';
import { messageOfT, range, tunedVersion } from '../support/judge-versions.js';
import { type PageHarness, startPageHarness } from '../support/page-harness.js';
import { signInLink, type Workspace } from '../support/workbench.js';

// The evaluators page's LLM judges in Debian's Chromium against the real API (and engine, on the
// dev server), over a SQLite store written day by day before the API opens it: on 05-02 and
// 05-03 llm_judge@1 passes m1..m20, on 05-04 the reviewer fails m1..m8 (a queue of messages
// reviews `review.passed`), on 05-05 llm_judge@tuned-1 is recorded with m1 as its example and
// m5..m14 held out, and on 05-06 it judges those as the reviewer did. Every figure the page
// shows is checked against the API's answer to the same request, as the same reviewer.

const app = defineConfig({
  feedbackTypes: [review],
  evaluators: [
    // Never called: the verdicts are written into the store.
    llmJudgeEvaluator({
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'judge-model',
      targets: ['message'],
    }),
  ],
  rules: [{ evaluator: 'llm_judge@1' }],
  scoreConfigs: { review: { source: 'HUMAN' } },
  reviewQueues: [
    {
      queueId: 'check',
      feedbackType: review,
      targetKinds: ['message'],
      instructions: 'Is the answer right?',
    },
  ],
});

const FIRST = '2026-05-01';
const LAST = '2026-05-06';
const DAY = 86_400_000;
const start = Date.parse(`${FIRST}T08:00:00Z`);
const window = windowOf(FIRST, LAST);
if (typeof window === 'string') throw new Error(window);
const message = messageOfT;
const passes = (i: number) => i > 8;
const against = 'reviewers:review.passed';
// With EVALFLOW_WRITE_DOCS=1 the screenshot is written into docs/images (operations.md shows it).
const screenshots =
  process.env.EVALFLOW_WRITE_DOCS === '1'
    ? join('docs', 'images')
    : join('.evalflow', 'test', 'screenshots');
const dir = mkdtempSync(join(tmpdir(), 'evalflow-judges-page-'));
let harness: PageHarness;
let h: ApiHarness;
let browser: Browser;
let grace: EvalflowClient;
const w: Workspace = { ws: 'ws', key: (principal) => h.key(principal, 'ws') };

async function seed(): Promise<void> {
  let clock = start;
  const store = openSqliteStore(join(dir, 'evalflow.db'), {
    feedbackTypes: app.feedbackTypes,
    evaluators: app.evaluators,
    scoreConfigs: app.scoreConfigs,
    now: () => new Date(clock),
  });
  const run = async (actor: object, command: object) => {
    const outcome = await store.executeUnchecked({ workspace_id: 'ws', actor, command });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  };
  const system = { kind: 'system', name: 'host' };
  const verdict = (version: string, i: number, passed: boolean) =>
    run(
      { kind: 'evaluator', name: 'llm_judge', version },
      {
        type: 'give_feedback',
        feedback_type: 'judge_verdict',
        target: message(i),
        value: { score: passed ? 1 : 0, passed },
      },
    );
  await run(system, { type: 'create_thread', thread_id: 't' });
  for (const i of range(1, 20)) {
    const content = `answer ${i}`;
    await run(system, {
      type: 'post_message',
      thread_id: 't',
      message_id: `m${i}`,
      role: 'assistant',
      content,
    });
  }
  for (const i of range(1, 20)) {
    clock = start + (i <= 10 ? 1 : 2) * DAY;
    await verdict('1', i, true);
  }
  clock = start + 3 * DAY;
  for (const i of range(1, 20)) {
    await run(
      { kind: 'reviewer', id: 'ana' },
      {
        type: 'give_feedback',
        feedback_type: 'review',
        target: message(i),
        value: { passed: passes(i) },
      },
    );
  }
  clock = start + 4 * DAY;
  await run(system, {
    type: 'record_judge_version',
    judge_version: tunedVersion({ heldOut: range(5, 14).map(message), note: 'wrong refund date' }),
  });
  clock = start + 5 * DAY;
  for (const i of range(5, 14)) await verdict('tuned-1', i, passes(i));
  await store.close();
}

beforeAll(async () => {
  await seed();
  harness = await startPageHarness(app, { dir });
  ({ h, browser } = harness);
  grace = new EvalflowClient({ baseUrl: h.url, apiKey: await w.key('reviewer:grace') });
  mkdirSync(screenshots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** An admin's sign-in link, as `evalflow reviewers link --admin` makes it. */
async function adminLink(): Promise<string> {
  const issued = await issueCredential(h.engine.store, {
    kind: 'sign_in',
    workspaceId: 'ws',
    principal: { kind: 'admin' },
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return `${h.url}${signInPath(issued.key, 'admin')}`;
}

/** grace's page (or an admin's) on the evaluators screen, FIRST to LAST, its judges' versions read. */
async function judgesPage(options: { bypassCSP?: boolean; as?: 'admin' } = {}): Promise<Page> {
  const { as, ...contextOptions } = options;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...contextOptions,
  });
  const page = await context.newPage();
  await page.goto(as === 'admin' ? await adminLink() : (await signInLink(h, w, 'grace')).url);
  await page.getByTestId('queues').waitFor();
  await page.getByTestId('to-evaluators').click();
  await page.locator('input[name="first"]').fill(FIRST);
  await page.locator('input[name="last"]').fill(LAST);
  await page.getByRole('button', { name: 'Show' }).click();
  await page.locator(`main[data-days="${FIRST}/${LAST}"]`).waitFor();
  await page.getByTestId('judge-versions').waitFor();
  return page;
}

/** Waits until the judges' table shows `mode` as `id`'s rule. */
const modeShown = (page: Page, id: string, mode: string) =>
  page
    .getByTestId('judge-table')
    .locator(`tr[data-version="${id}"] [data-testid="judge-mode"]`, {
      hasText: new RegExp(`^${mode}$`),
    })
    .waitFor();

const card = (page: Page, id: string) =>
  page.locator(`[data-testid="judge-version"][data-version="${id}"]`);
const textOf = async (page: Page, id: string, testId: string) =>
  ((await card(page, id).getByTestId(testId).textContent()) ?? '').trim();

describe("the evaluators page's LLM judges", () => {
  it('lists the version declared in code and the one tuned from it, with their rules', async () => {
    const page = await judgesPage();
    const rows = page.getByTestId('judge-table').locator('tbody tr');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.textContent?.trim()))).toEqual([
      'llm_judge@1declared in codejudge-modellive00',
      'llm_judge@tuned-1tuned from llm_judge@1judge-modelno rule110',
    ]);
    await page.context().close();
  });

  it("draws each version's κ against the reviewers as of each day, as the API gives it", async () => {
    const page = await judgesPage();
    for (const id of ['llm_judge@1', 'llm_judge@tuned-1']) {
      const drawn = await card(page, id)
        .locator('[data-testid="kappa-chart"] g[data-day]')
        .evaluateAll((gs) =>
          gs.map((g) => [g.getAttribute('data-kappa'), Number(g.getAttribute('data-matched'))]),
        );
      const answered = await Promise.all(
        window.days.map(async (day) => {
          const figures = (
            await grace.agreement({ a: `${id}:passed`, b: against, to: day.to, limit: 0 })
          ).categorical;
          return [
            figures?.kappa.value == null ? '' : String(figures.kappa.value),
            figures?.matched ?? 0,
          ];
        }),
      );
      expect(drawn).toEqual(answered);
    }
    // Before the review there is nothing to compare (a gap, never 0); after it, the base agrees
    // by chance only, and the candidate with every review on its held-out targets.
    const base = await card(page, 'llm_judge@1')
      .locator('g[data-day="2026-05-03"]')
      .getAttribute('data-kappa');
    expect(base).toBe('');
    expect(
      await card(page, 'llm_judge@1')
        .locator('g[data-day="2026-05-04"]')
        .getAttribute('data-kappa'),
    ).toBe('0');
    expect(
      await card(page, 'llm_judge@tuned-1')
        .locator('g[data-day="2026-05-06"]')
        .getAttribute('data-kappa'),
    ).toBe('1');
    await page.context().close();
  });

  it("shows a tuned version's examples with their provenance, and its backtest as the API gives it", async () => {
    const page = await judgesPage();
    const tuned = card(page, 'llm_judge@tuned-1');
    await tuned.getByTestId('judge-examples').locator('summary').click();
    expect(
      await tuned
        .getByTestId('judge-examples')
        .locator('tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent))),
    ).toEqual([['message:t/m1', 'false', 'true', 'reviewer:ana: false (wrong refund date)']]);
    const { statistics } = await grace.judgeVersions.backtest('llm_judge@tuned-1', {
      against,
      field: 'passed',
    });
    expect(await textOf(page, 'llm_judge@tuned-1', 'backtest-old')).toBe(
      `${figure(statistics.old.kappa.value)} (${intervalText(statistics.old.kappaInterval)})`,
    );
    expect(await textOf(page, 'llm_judge@tuned-1', 'backtest-new')).toBe(
      `${figure(statistics.new.kappa.value)} (${intervalText(statistics.new.kappaInterval)})`,
    );
    expect(await textOf(page, 'llm_judge@tuned-1', 'backtest-gain')).toBe(
      `${figure(statistics.kappaDifference.difference.value)} (${intervalText(statistics.kappaDifference.interval)})`,
    );
    expect(await textOf(page, 'llm_judge@tuned-1', 'backtest-p')).toBe(
      figure(statistics.mcnemar.pValue),
    );
    expect(await textOf(page, 'llm_judge@tuned-1', 'backtest-changed')).toBe(
      String(statistics.changed.length),
    );
    expect(statistics).toMatchObject({ targets: 10, compared: 10, new: { kappa: { value: 1 } } });
    expect(await textOf(page, 'llm_judge@tuned-1', 'backtest-reading')).toBe(
      'It gains over llm_judge@1 on 10 held-out targets: it can be promoted on its backtest.',
    );
    // A declared version has no examples nor backtest.
    expect(await card(page, 'llm_judge@1').getByTestId('backtest').count()).toBe(0);
    await page.screenshot({ path: join(screenshots, 'judge-versions.png'), fullPage: true });
    await page.context().close();
  });

  it("shows a reviewer the commands an admin runs; an admin's page promotes it through the gate", async () => {
    const page = await judgesPage();
    const commands = await textOf(page, 'llm_judge@tuned-1', 'judge-commands');
    expect(commands.split('\n')).toEqual([
      'npx evalflow rules set llm_judge@tuned-1 --mode shadow --workspace ws',
      `npx evalflow rules promote llm_judge@tuned-1 --backtest --against ${against} --field passed --min-kappa 0.6 --min-matched 10 --workspace ws`,
    ]);
    expect(await card(page, 'llm_judge@tuned-1').getByTestId('judge-actions').count()).toBe(0);
    await page.context().close();

    const admin = await judgesPage({ as: 'admin' });
    const tuned = card(admin, 'llm_judge@tuned-1');
    await tuned.getByTestId('judge-actions').scrollIntoViewIfNeeded();
    await tuned.screenshot({ path: join(screenshots, 'judge-versions-admin.png') });
    const head = await h.engine.store.head('ws');
    // Short evidence is refused with its figures, and changes nothing.
    await tuned.locator('input[name="min-matched"]').fill('30');
    await tuned.getByRole('button', { name: 'Promote it on this backtest' }).click();
    expect(await tuned.getByTestId('judge-action-refused').textContent()).toMatch(
      /^Refused: llm_judge@tuned-1 was not promoted: the evidence is short \(10 matched targets, fewer than 30\)/,
    );
    expect(await h.engine.store.head('ws')).toBe(head);
    // Shadowed first, on the kinds its base's rule judges; the page is read again.
    await tuned.getByRole('button', { name: 'Shadow it on live traffic' }).click();
    await modeShown(admin, 'llm_judge@tuned-1', 'shadow');
    await tuned.locator('input[name="min-matched"]').fill('10');
    await tuned.getByRole('button', { name: 'Promote it on this backtest' }).click();
    // The page is read again: the rules the promotion switched.
    await modeShown(admin, 'llm_judge@tuned-1', 'live');
    const modes = await admin
      .getByTestId('judge-table')
      .getByTestId('judge-mode')
      .evaluateAll((cells) => cells.map((cell) => cell.textContent));
    expect(modes).toEqual(['live, disabled', 'live']);
    expect(await admin.locator('[aria-live]').first().textContent()).toContain(
      'llm_judge@tuned-1 is promoted on its backtest.',
    );
    await admin.context().close();
  });

  it("has no critical accessibility violation, a reviewer's page or an admin's, and is shown in operations.md", async () => {
    for (const as of [undefined, 'admin'] as const) {
      const page = await judgesPage({ bypassCSP: true, ...(as ? { as } : {}) });
      await card(page, 'llm_judge@tuned-1')
        .getByTestId('judge-examples')
        .locator('summary')
        .click();
      await page.addScriptTag({
        path: createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
      });
      const found = (await page.evaluate(
        'axe.run(document).then((r) => r.violations.map(({ id, impact }) => ({ id, impact })))',
      )) as { id: string; impact: string }[];
      expect(
        found.filter((v) => v.impact === 'critical'),
        as ?? 'reviewer',
      ).toEqual([]);
      await page.context().close();
    }
    expect(readFileSync(join('docs', 'operations.md'), 'utf8')).toContain(
      '](images/judge-versions.png)',
    );
    for (const image of ['judge-versions.png', 'judge-versions-admin.png']) {
      expect(readFileSync(join('docs', 'operations.md'), 'utf8')).toContain(`](images/${image})`);
      expect(existsSync(join('docs', 'images', image))).toBe(true);
    }
  });
});

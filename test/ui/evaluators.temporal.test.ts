import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Agreement, EvalflowClient } from '../../src/client/index.js';
import { defineConfig } from '../../src/config/index.js';
import { defineFeedbackType, usdExactText } from '../../src/core/index.js';
import { defineEvaluator } from '../../src/evaluators/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import { figure, intervalText, percent, windowOf } from '../../src/ui/evaluators-data.js';
import {
  clockStart,
  DAY,
  helpfulness,
  judgesApp,
  politeness,
  reviewVerdict,
  storeVerdicts,
} from '../evidence/stored-verdicts.js';
import { graceVerdicts } from '../evidence/verdict-data.js';
import type { ApiHarness } from '../support/api.js';
import { type PageHarness, startPageHarness } from '../support/page-harness.js';
import { seedSpend } from '../support/spend.js';
import { signInLink, type Workspace } from '../support/workbench.js';

// The evaluators page in Debian's Chromium against the real API (and engine, on the dev server)
// over a SQLite store holding test/evidence's verdicts, written at their days (2026-05-01 to
// 05-06) by a store with the test's clock before the API opens it. Every number the page shows
// is checked against the API's answer to the same request, made here with the HTTP client as
// the same reviewer. With EVALFLOW_WRITE_DOCS=1 the screenshot is written into docs/images (the
// README shows it); otherwise into .evalflow.
//
// Beside test/evidence's politeness versions, two evaluators as a new app has them: answer_length
// gives a field no reviewer gives (reviewers give review_verdict.verdict, through a queue of
// messages routing its verdicts), json_validity a free-text field beside its boolean one.

const answerLength = defineFeedbackType({
  name: 'answer_length',
  targets: ['message'],
  schema: z.object({ within_limit: z.boolean() }),
});
const jsonValidity = defineFeedbackType({
  name: 'json_validity',
  targets: ['message'],
  schema: z.object({ valid: z.boolean(), error: z.string().optional() }),
});
const lengthJudge = defineEvaluator({
  name: 'answer_length',
  version: '1',
  feedbackType: answerLength,
  targets: ['message'],
  source: 'HARNESS',
  evaluate: () => ({ within_limit: true }),
});
const jsonJudge = defineEvaluator({
  name: 'json_validity',
  version: '1',
  feedbackType: jsonValidity,
  targets: ['message'],
  source: 'HARNESS',
  evaluate: () => ({ valid: true }),
});
const pageApp = defineConfig({
  feedbackTypes: [reviewVerdict, helpfulness],
  evaluators: [...judgesApp.evaluators.list(), lengthJudge, jsonJudge],
  rules: [
    { evaluator: 'politeness@1' },
    { evaluator: 'politeness@2', mode: 'shadow' },
    { evaluator: 'answer_length@1' },
    { evaluator: 'json_validity@1' },
  ],
  scoreConfigs: { politeness: { source: 'HUMAN' }, review_verdict: { source: 'HUMAN' } },
  reviewQueues: [
    {
      queueId: 'second-look',
      feedbackType: politeness,
      targetKinds: ['message'],
      instructions: 'A judge and the reviewers disagreed here. Is the answer polite?',
    },
    {
      queueId: 'verdicts',
      feedbackType: reviewVerdict,
      targetKinds: ['message'],
      instructions: 'Does the answer pass?',
      routing: [
        {
          kind: 'verdict_equals',
          evaluator: 'answer_length@1',
          field: 'within_limit',
          equals: false,
        },
      ],
    },
  ],
});
/** answer_length@1 on m1..m6: grace's review_verdict as true and false, but on m3. */
const withinLimit = graceVerdicts.map((verdict, i) => (i === 2 ? true : verdict === 'pass'));
const JSON_ERROR = 'Unexpected token a in JSON at position 0';

const writing = process.env.EVALFLOW_WRITE_DOCS === '1';
const screenshots = join('.evalflow', 'test', 'screenshots');
const shots = writing ? 'docs/images' : screenshots;
const dir = mkdtempSync(join(tmpdir(), 'evalflow-evaluators-'));
const FIRST = '2026-05-01';
const LAST = '2026-05-06';
const window = windowOf(FIRST, LAST);
if (typeof window === 'string') throw new Error(window);
let harness: PageHarness;
let h: ApiHarness;
let browser: Browser;
let grace: EvalflowClient;
const w: Workspace = { ws: 'ws', key: (principal) => h.key(principal, 'ws') };

beforeAll(async () => {
  let clock = clockStart;
  const store = openSqliteStore(join(dir, 'evalflow.db'), {
    feedbackTypes: pageApp.feedbackTypes,
    evaluators: pageApp.evaluators,
    scoreConfigs: pageApp.scoreConfigs,
    now: () => new Date(clock),
  });
  await storeVerdicts(store, 'ws', (ms) => {
    clock = ms;
  });
  // On the last day, answer_length's and json_validity's verdicts on m1..m6.
  clock = clockStart + 5 * DAY + 60_000;
  for (const [i, within] of withinLimit.entries()) {
    const target = { kind: 'message', thread_id: 't', message_id: `m${i + 1}`, run_id: 'r' };
    const give = async (name: string, value: object) => {
      const actor = { kind: 'evaluator', name, version: '1' };
      const command = { type: 'give_feedback', feedback_type: name, target, value };
      const outcome = await store.executeUnchecked({ workspace_id: 'ws', actor, command });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
    };
    await give('answer_length', { within_limit: within });
    await give('json_validity', within ? { valid: true } : { valid: false, error: JSON_ERROR });
  }
  // What answer_length used on the last day: one report with no price known.
  await store.usage.recordUsage({
    workspace_id: 'ws',
    generation: 'run',
    participant: 'evaluator:answer_length@1',
    target_key: 'message:t/m1',
    attempt: 1,
    report: 0,
    model: 'local',
    input_tokens: 10,
    output_tokens: 1,
    cost_nanos: null,
  });
  await store.close();
  // What judging used on two of the days, in this workspace and another (test/support/spend.ts).
  await seedSpend(join(dir, 'evalflow.db'), pageApp.feedbackTypes);
  harness = await startPageHarness(pageApp, { dir });
  ({ h, browser } = harness);
  grace = new EvalflowClient({ baseUrl: h.url, apiKey: await w.key('reviewer:grace') });
  mkdirSync(shots, { recursive: true });
  mkdirSync(screenshots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** grace's page on the evaluators screen, showing `first` to `last` (FIRST to LAST). */
async function evaluatorsPage(
  options: {
    bypassCSP?: boolean;
    first?: string;
    last?: string;
    watch?: (page: Page) => void;
  } = {},
): Promise<Page> {
  const { first = FIRST, last = LAST, watch, ...contextOptions } = options;
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    ...contextOptions,
  });
  const page = await context.newPage();
  watch?.(page);
  await showEvaluators(page, first, last);
  return page;
}

/** Signs `page` in as grace and shows the evaluators of `first` to `last`, read in full. */
async function showEvaluators(page: Page, first = FIRST, last = LAST): Promise<void> {
  await page.goto((await signInLink(h, w, 'grace')).url);
  await page.getByTestId('queues').waitFor();
  await page.getByTestId('to-evaluators').click();
  await page.locator('input[name="first"]').fill(first);
  await page.locator('input[name="last"]').fill(last);
  await page.getByRole('button', { name: 'Show' }).click();
  // The figures of these days, not those of the days shown before the click.
  await page.locator(`main[data-days="${first}/${last}"]`).waitFor();
  await page.getByTestId('spend-total').waitFor();
  if (first === FIRST) await card(page, 'politeness@2:polite').getByTestId('agreement').waitFor();
}

const card = (page: Page, side: string) =>
  page.locator(`[data-testid="version-field"][data-side="${side}"]`);
const text = async (page: Page, side: string, testId: string) =>
  ((await card(page, side).getByTestId(testId).first().textContent()) ?? '').trim();

/** What a day's priced usage cost, summed over versions in nano-dollars. */
const dayCost = (costs: { rows: { day: string | null; costUsd: number }[] }, day: string) =>
  costs.rows
    .filter((row) => row.day === day)
    .reduce((sum, row) => sum + Math.round(row.costUsd * 1e9), 0) / 1e9;

const byKey = (x: object, y: object) => JSON.stringify(x).localeCompare(JSON.stringify(y));

/** The API's agreement for the request the page makes for `side`. */
const asked = (side: string): Promise<Agreement> =>
  grace.agreement({ a: side, b: 'reviewers', from: window.from, to: window.to, limit: 20 });

describe('the evaluators page', () => {
  it("shows each version's rule, live or shadow, as the API lists them", async () => {
    const page = await evaluatorsPage();
    const { rules } = await grace.evaluationRules.list();
    const politeness = page.locator('[data-feedback-type="politeness"]');
    for (const version of ['politeness@1', 'politeness@2']) {
      const rule = rules.find((r) => r.evaluator === version);
      const mode = await politeness
        .locator(`tr[data-version="${version}"]`)
        .getByTestId('mode')
        .textContent();
      expect(mode, version).toBe(rule?.mode);
    }
    const modes = rules.filter((r) => r.evaluator.startsWith('politeness@')).map((r) => r.mode);
    expect(modes).toEqual(['live', 'shadow']);
    await page.context().close();
  });

  it("draws each day's verdicts as the score summary counts them for the same days", async () => {
    const page = await evaluatorsPage();
    const { groups } = await grace.scoresSummary({
      from: window.from,
      to: window.to,
      includeShadow: 'true',
      per: 'day',
    });
    // The summary per day is the summary of each day, asked for one by one.
    const daily = await Promise.all(
      window.days.map((day) =>
        grace.scoresSummary({ from: day.from, to: day.to, includeShadow: 'true' }),
      ),
    );
    expect(groups.map(({ day: _day, ...rest }) => rest).sort(byKey)).toEqual(
      daily.flatMap((d) => d.groups).sort(byKey),
    );
    for (const version of ['politeness@1', 'politeness@2']) {
      const bars = card(page, `${version}:polite`).locator('g.bar');
      expect(await bars.count()).toBe(window.days.length);
      for (const day of window.days) {
        const group = groups.find(
          (g) =>
            g.producer === version &&
            g.name === 'politeness.polite' &&
            g.day === day.from.slice(0, 10),
        );
        const bar = bars.nth(window.days.indexOf(day));
        expect(await bar.getAttribute('data-day')).toBe(day.from.slice(0, 10));
        expect(Number(await bar.getAttribute('data-count')), `${version} ${day.from}`).toBe(
          group?.count ?? 0,
        );
        for (const [label, n] of Object.entries(group?.distribution ?? {})) {
          const rect = bar.locator(`rect[data-label="${label}"]`);
          expect(Number(await rect.getAttribute('data-count'))).toBe(n);
        }
      }
    }
    // The shadow version's verdicts are days 1 to 5's; its trend line has a point per such day.
    const v2 = card(page, 'politeness@2:polite');
    const withVerdicts = groups.filter(
      (g) => g.producer === 'politeness@2' && g.name === 'politeness.polite',
    ).length;
    expect(withVerdicts).toBeGreaterThan(2);
    expect(await v2.locator('circle.trend-point').count()).toBe(withVerdicts);
    expect(await v2.getByTestId('trend-line').count()).toBe(1);
    await page.context().close();
  });

  it('draws spend per version and day as the costs route sums it, unpriced reports said', async () => {
    const page = await evaluatorsPage();
    const costs = await grace.costs({ by: ['version', 'day'], from: FIRST, to: LAST });
    expect(costs.rows.length).toBeGreaterThan(1);
    const chart = page.getByTestId('spend-chart');
    const bars = chart.locator('g.bar');
    expect(await bars.count()).toBe(window.days.length);
    for (const day of window.days.map((d) => d.from.slice(0, 10))) {
      const bar = chart.locator(`g.bar[data-day="${day}"]`);
      const rows = costs.rows.filter((row) => row.day === day && row.costUsd > 0);
      expect(await bar.locator('rect').count(), day).toBe(rows.length);
      for (const row of rows) {
        const rect = bar.locator(`rect[data-version="${row.evaluator}"]`);
        expect(Number(await rect.getAttribute('data-cost')), `${row.evaluator} ${day}`).toBe(
          row.costUsd,
        );
      }
    }
    // The versions' sums, and what had no price, in the table beside the chart: to the last
    // nano-dollar they hold, counted in the singular for one.
    const cells = async (version: string) => {
      const line = page.locator(`[data-testid="spend-table"] tr[data-version="${version}"]`);
      return [
        await line.getByTestId('spend-cost').textContent(),
        await line.getByTestId('spend-unpriced').textContent(),
      ];
    };
    expect(await cells('politeness@1')).toEqual(['$0.0015', '1 report without a price']);
    expect(await cells('politeness@2')).toEqual(['$0.00301', '–']);
    expect(await cells('answer_length@1')).toEqual(['no price known', '1 report without a price']);
    expect(costs.total.costUsd).toBe(0.00451);
    expect(costs.total.unpricedReports).toBe(2);
    expect(await page.getByTestId('spend-total').textContent()).toBe(
      '($0.00451 in all, and 2 reports without a price)',
    );
    const tallest = Math.max(...window.days.map((d) => dayCost(costs, d.from.slice(0, 10))));
    expect(await page.getByTestId('spend-axis-top').textContent()).toBe(usdExactText(tallest));
    await page.context().close();
  });

  it('says no price is known, never $0, for days whose usage had none', async () => {
    const page = await evaluatorsPage({ first: LAST, last: LAST });
    expect(await page.getByTestId('spend-total').textContent()).toBe(
      '(no price known: 1 report without a price)',
    );
    expect(await page.getByTestId('spend-chart').count()).toBe(0);
    expect(await page.getByTestId('spend-unpriced-only').textContent()).toContain(
      'No usage in these days had a known price',
    );
    expect(await page.getByTestId('spend').textContent()).not.toContain('$0');
    await page.screenshot({ path: join(screenshots, 'evaluators-unpriced.png'), fullPage: true });
    await page.context().close();
  });

  it("shows κ with its interval, the base rates and the confusion matrix as the API's agreement gives them", async () => {
    const page = await evaluatorsPage();
    for (const side of ['politeness@1:polite', 'politeness@2:polite']) {
      const api = await asked(side);
      const c = api.categorical;
      if (c === null) throw new Error(`${side}: not categorical`);
      expect(c.kappa.value, side).not.toBeNull();
      expect(await text(page, side, 'kappa')).toBe(figure(c.kappa.value));
      expect(await text(page, side, 'kappa-interval')).toBe(intervalText(c.kappaInterval));
      if (c.kappaInterval.low === null) {
        // Too few matched targets for an interval: said, not hidden.
        expect(await card(page, side).getByTestId('agreement').textContent()).toContain(
          c.kappaInterval.reason,
        );
      }
      expect(await text(page, side, 'matched')).toBe(String(c.matched));
      expect(await text(page, side, 'raw-agreement')).toBe(percent(c.rawAgreement.value));
      const rates = card(page, side).getByTestId('base-rates');
      for (const label of c.perLabel) {
        const row = rates.locator(`tr[data-label="${label.label}"]`);
        expect(await row.getByTestId('rate-a').textContent()).toBe(
          `${percent(label.rateA.value)} (${label.countA})`,
        );
        expect(await row.getByTestId('rate-b').textContent()).toBe(
          `${percent(label.rateB.value)} (${label.countB})`,
        );
      }
      const heatmap = card(page, side).getByTestId('confusion-heatmap');
      for (const [i, row] of c.labels.entries()) {
        for (const [j, column] of c.labels.entries()) {
          const cell = heatmap.locator(`g[data-row="${row}"][data-column="${column}"]`);
          expect(Number(await cell.getAttribute('data-count')), `${side} ${row}/${column}`).toBe(
            c.confusion[i]?.[j],
          );
        }
      }
      expect(await text(page, side, 'disagreements-total')).toBe(String(api.disagreements.total));
      expect(await card(page, side).getByTestId('disagreements').locator('li').count()).toBe(
        api.disagreements.listed.length,
      );
    }
    // @2's κ against the reviewers over messages and the turn (test/evidence has the messages').
    const [v1, v2] = await Promise.all([
      asked('politeness@1:polite'),
      asked('politeness@2:polite'),
    ]);
    expect([v1.categorical?.matched, v2.categorical?.matched]).toEqual([9, 11]);
    expect(v1.categorical?.kappaInterval.low).toBeNull();
    expect(v2.categorical?.kappaInterval.low).not.toBeNull();
    await page.context().close();
  });

  it('opens a disagreement as the item view shows its target, and Esc comes back', async () => {
    const page = await evaluatorsPage();
    const api = await asked('politeness@2:polite');
    const first = api.disagreements.listed.find((d) => d.target.kind === 'message');
    const target = first?.target;
    if (first === undefined || target?.kind !== 'message') throw new Error('none listed');
    const list = card(page, 'politeness@2:polite').getByTestId('disagreements');
    await list
      .getByRole('button', {
        name: `message ${target.messageId} in thread ${target.threadId}`,
      })
      .click();
    const view = page.getByTestId('target-view');
    await view.waitFor();
    expect(await view.getByTestId('verdict-a').textContent()).toBe(String(first.a));
    expect(await view.getByTestId('verdict-b').textContent()).toBe(String(first.b));
    const marked = view.locator('li.message.is-target');
    expect(await marked.getAttribute('data-message-id')).toBe(target.messageId);
    const conversation = await grace.conversation('t');
    const message = conversation.messages.find((m) => m.messageId === target.messageId);
    expect((await marked.locator('.content').textContent())?.trim()).toBe(message?.content);
    // The turn's disagreement opens on its run's messages.
    await page.keyboard.press('Escape');
    const turn = api.disagreements.listed.find((d) => d.target.kind === 'turn');
    expect(turn).toBeDefined();
    await card(page, 'politeness@2:polite')
      .getByRole('button', { name: 'the turn of run r' })
      .click();
    await view.waitFor();
    // The view fills in as the run's messages arrive: wait for them, not for the frame alone.
    await expect.poll(() => view.locator('li.message.is-target').count()).toBe(12);
    await page.keyboard.press('Escape');
    await card(page, 'politeness@2:polite').waitFor();
    await page.context().close();
  });

  it('has the keyboard path of the rest of the page: ↑ ↓ through the disagreements, Enter opens, Esc comes back to the row, ? helps', async () => {
    const page = await evaluatorsPage();
    expect(await page.getByTestId('keys-hint').textContent()).toContain('lists every shortcut');
    const rows = page.locator('[data-testid=disagreements] > li > button');
    // The index of the focused disagreement among the page's, -1 for none.
    const focused = () =>
      page.evaluate(
        `[...document.querySelectorAll('[data-testid=disagreements] > li > button')].indexOf(document.activeElement)`,
      ) as Promise<number>;
    expect(await rows.count()).toBeGreaterThan(2);
    // From the Show button (not a field), ↓ goes to the first disagreement, then on, and back.
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(0);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe(1);
    const name = await rows.nth(1).textContent();
    await page.keyboard.press('Enter');
    const view = page.getByTestId('target-view');
    await view.waitFor();
    expect(await page.locator('#target-view-title').textContent()).toBe(name);
    await page.keyboard.press('Escape');
    await expect.poll(focused).toBe(1);
    // A date field keeps its arrows.
    await page.locator('input[name="first"]').focus();
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe(-1);
    await rows.nth(0).focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(await help.textContent()).toContain('disagreement');
    // Esc closes the help, and an Esc right behind it goes back a screen: both are sent before
    // either is answered, so the second comes before the dialog's (asynchronous) close event.
    await Promise.all([page.keyboard.press('Escape'), page.keyboard.press('Escape')]);
    await help.waitFor({ state: 'hidden' });
    await page.getByTestId('queues').waitFor({ timeout: 5_000 });
    await page.context().close();
  });

  it('says why when the window or the side chosen cannot be read', async () => {
    const page = await evaluatorsPage();
    const politeV2 = card(page, 'politeness@2:polite');
    await politeV2.locator('input[name="against"]').fill('everyone');
    await politeV2.getByRole('button', { name: 'Compare' }).click();
    const refused = politeV2.getByRole('alert');
    await refused.waitFor();
    const api = await grace
      .agreement({ a: 'politeness@2:polite', b: 'everyone' })
      .catch((error: Error) => error);
    expect(await refused.textContent()).toContain((api as Error).message);
    await page.locator('input[name="first"]').fill('2026-06-01');
    await page.getByRole('button', { name: 'Show' }).click();
    // The refusal of the side before is on screen until the new window is read.
    await expect
      .poll(() => page.locator('main [role="alert"]').first().textContent())
      .toContain('The last day comes before the first.');
    await page.context().close();
  });

  it('loads without an error box, and charts and compares only comparable fields', async () => {
    const page = await evaluatorsPage();
    await card(page, 'answer_length@1:within_limit').getByTestId('unmapped').waitFor();
    await card(page, 'json_validity@1:valid').getByTestId('agreement').waitFor();
    expect(await page.locator('main [role="alert"]').count()).toBe(0);
    const sides = await page
      .getByTestId('version-field')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-side')));
    expect(sides).toContain('json_validity@1:valid');
    expect(sides).not.toContain('json_validity@1:error');
    expect(await page.locator('main').textContent()).not.toContain(JSON_ERROR);
    await page.context().close();
  });

  it("compares a version with the reviewers' field of the queue reviewing its targets, mapped as the author chose, kept", async () => {
    const page = await evaluatorsPage();
    const length = card(page, 'answer_length@1:within_limit');
    // Reviewers give review_verdict.verdict on messages (queue verdicts), not within_limit.
    expect(await length.locator('input[name="against"]').inputValue()).toBe(
      'reviewers:review_verdict.verdict',
    );
    const against = 'reviewers:review_verdict.verdict';
    const unmapped = await grace.agreement({
      a: 'answer_length@1:within_limit',
      b: against,
      from: window.from,
      to: window.to,
      limit: 20,
    });
    // Matched, but with no label in common nothing can agree: said, not drawn as a matrix.
    expect(unmapped.categorical?.matched).toBe(6);
    expect(await length.getByTestId('unmapped').textContent()).toBe(
      'answer_length@1:within_limit gives false, true and reviewers:review_verdict.verdict ' +
        'fail, pass: no label in common, so no verdict can agree. Say above which of its ' +
        'labels each of these means.',
    );
    expect(await length.getByTestId('confusion-heatmap').count()).toBe(0);
    // Its labels are true and false, the reviewers' pass and fail: the author says which is which.
    await length.locator('select[name="map-true"]').selectOption('pass');
    await length.locator('select[name="map-false"]').selectOption('fail');
    await length.getByRole('button', { name: 'Compare' }).click();
    const mapping = { true: 'pass', false: 'fail' };
    const api = await grace.agreement({
      a: 'answer_length@1:within_limit',
      b: against,
      mapping,
      from: window.from,
      to: window.to,
      limit: 20,
    });
    const kappa = figure(api.categorical?.kappa.value);
    expect(kappa).not.toBe('–');
    await expect.poll(() => text(page, 'answer_length@1:within_limit', 'kappa')).toBe(kappa);
    expect(await text(page, 'answer_length@1:within_limit', 'raw-agreement')).toBe(
      percent(api.categorical?.rawAgreement.value),
    );
    await page.screenshot({ path: join(shots, 'evaluators.png'), fullPage: true });
    // Read again in this browser, the chosen mapping is still the one compared.
    const again = await page.context().newPage();
    await showEvaluators(again);
    await card(again, 'answer_length@1:within_limit').getByTestId('kappa').waitFor();
    expect(await text(again, 'answer_length@1:within_limit', 'kappa')).toBe(kappa);
    expect(
      await card(again, 'answer_length@1:within_limit')
        .locator('select[name="map-true"]')
        .inputValue(),
    ).toBe('pass');
    expect(await again.locator('main [role="alert"]').count()).toBe(0);
    await page.context().close();
  });

  it('serves an icon: no request of the page is refused', async () => {
    const refused: string[] = [];
    const errors: string[] = [];
    const page = await evaluatorsPage({
      watch: (p) => {
        p.on('response', (r) => {
          if (r.status() >= 400) refused.push(`${r.status()} ${r.url()}`);
        });
        p.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
      },
    });
    const icon = await fetch(`${h.url}/favicon.ico`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await icon.text()).toContain('<svg');
    // The page names its icon; a browser asks for it as the page loads.
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.ico');
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('has no critical accessibility violation, and is shown in the README', async () => {
    const page = await evaluatorsPage({ bypassCSP: true });
    await page.addScriptTag({
      path: createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    });
    const found = (await page.evaluate(
      'axe.run(document).then((r) => r.violations.map(({ id, impact }) => ({ id, impact })))',
    )) as { id: string; impact: string }[];
    expect(found.filter((v) => v.impact === 'critical')).toEqual([]);
    await page.context().close();
    expect(readFileSync('README.md', 'utf8')).toContain('](docs/images/evaluators.png)');
    expect(existsSync(join('docs', 'images', 'evaluators.png'))).toBe(true);
  });
});

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUi } from '../../scripts/build-ui.js';
import { type Agreement, EvalflowClient } from '../../src/client/index.js';
import { openSqliteStore } from '../../src/store/index.js';
import { figure, intervalText, percent, windowOf } from '../../src/ui/evaluators-data.js';
import { clockStart, judgesApp, storeVerdicts } from '../evidence/stored-verdicts.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { launchChromium } from '../support/browser.js';
import { seedSpend } from '../support/spend.js';
import { devServerEnvironment } from '../support/temporal.js';
import { signInLink, type Workspace } from '../support/workbench.js';

// The evaluators page in Debian's Chromium against the real API (and engine, on the dev server)
// over a SQLite store holding test/evidence's verdicts, written at their days (2026-05-01 to
// 05-06) by a store with the test's clock before the API opens it. Every number the page shows
// is checked against the API's answer to the same request, made here with the HTTP client as
// the same reviewer. With EVALFLOW_WRITE_DOCS=1 the screenshot is written into docs/images (the
// README shows it); otherwise into .evalflow.

const writing = process.env.EVALFLOW_WRITE_DOCS === '1';
const shots = writing ? 'docs/images' : join('.evalflow', 'test', 'screenshots');
const uiRoot = mkdtempSync(join(tmpdir(), 'evalflow-ui-'));
const dir = mkdtempSync(join(tmpdir(), 'evalflow-evaluators-'));
const FIRST = '2026-05-01';
const LAST = '2026-05-06';
const window = windowOf(FIRST, LAST);
if (typeof window === 'string') throw new Error(window);
let env: TestWorkflowEnvironment;
let h: ApiHarness;
let browser: Browser;
let grace: EvalflowClient;
const w: Workspace = { ws: 'ws', key: (principal) => h.key(principal, 'ws') };

beforeAll(async () => {
  let clock = clockStart;
  const store = openSqliteStore(join(dir, 'evalflow.db'), {
    feedbackTypes: judgesApp.feedbackTypes,
    evaluators: judgesApp.evaluators,
    scoreConfigs: judgesApp.scoreConfigs,
    now: () => new Date(clock),
  });
  await storeVerdicts(store, 'ws', (ms) => {
    clock = ms;
  });
  await store.close();
  // What judging used on two of the days, in this workspace and another (test/support/spend.ts).
  await seedSpend(join(dir, 'evalflow.db'), judgesApp.feedbackTypes);
  const [environment] = await Promise.all([devServerEnvironment(), buildUi(uiRoot)]);
  env = environment;
  h = await startApi(env, judgesApp, { dir, uiRoot });
  grace = new EvalflowClient({ baseUrl: h.url, apiKey: await w.key('reviewer:grace') });
  browser = await launchChromium();
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await h?.close();
  await env?.teardown();
  rmSync(uiRoot, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** grace's page on the evaluators screen, showing FIRST to LAST against `against`. */
async function evaluatorsPage(options: { bypassCSP?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  await page.goto((await signInLink(h, w, 'grace')).url);
  await page.getByTestId('queues').waitFor();
  await page.getByTestId('to-evaluators').click();
  await page.locator('input[name="first"]').fill(FIRST);
  await page.locator('input[name="last"]').fill(LAST);
  await page.getByRole('button', { name: 'Show' }).click();
  await card(page, 'politeness@2:polite').getByTestId('agreement').waitFor();
  return page;
}

const card = (page: Page, side: string) =>
  page.locator(`[data-testid="version-field"][data-side="${side}"]`);
const text = async (page: Page, side: string, testId: string) =>
  ((await card(page, side).getByTestId(testId).first().textContent()) ?? '').trim();

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
    expect(rules.map((r) => r.mode)).toEqual(['live', 'shadow']);
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
    // The versions' sums, and what had no price, in the table beside the chart.
    for (const version of ['politeness@1', 'politeness@2']) {
      const rows = costs.rows.filter((row) => row.evaluator === version);
      const line = page.locator(`[data-testid="spend-table"] tr[data-version="${version}"]`);
      expect(await line.getByTestId('spend-cost').textContent()).toBe(
        `$${rows.reduce((sum, row) => sum + row.costUsd, 0).toFixed(6)}`,
      );
      const unpriced = rows.reduce((sum, row) => sum + row.unpricedReports, 0);
      expect(await line.getByTestId('spend-unpriced').textContent()).toBe(
        unpriced === 0 ? '–' : `${unpriced} reports, cost unknown`,
      );
    }
    expect(await page.getByTestId('spend-total').textContent()).toBe(
      `($${costs.total.costUsd.toFixed(6)} in all, and ${costs.total.unpricedReports} reports without a price)`,
    );
    expect(costs.total.unpricedReports).toBe(1);
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
    await page.screenshot({ path: join(shots, 'evaluators.png'), fullPage: true });
    await page.context().close();
  });

  it('says why when the window or the side against cannot be read', async () => {
    const page = await evaluatorsPage();
    await page.locator('input[name="against"]').fill('everyone');
    await page.getByRole('button', { name: 'Show' }).click();
    const refused = card(page, 'politeness@2:polite').getByRole('alert');
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

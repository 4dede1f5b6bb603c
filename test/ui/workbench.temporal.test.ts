import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, ensureChromium } from '../../src/cli/supervision/chromium-binary.js';
import { JsonlScoreSink } from '../../src/scores/file/index.js';
import type { ApiHarness } from '../support/api.js';
import { type PageHarness, startPageHarness } from '../support/page-harness.js';
import { eventually } from '../support/processes.js';
import {
  answer,
  enqueue,
  judged,
  nextShown,
  shownItem,
  signInLink,
  type Workspace,
  workspace,
} from '../support/workbench.js';
import { answerReview, workbenchApp } from '../support/workbench-app.js';

// The reviewers' page in Debian's Chromium, against the real API and engine (a worker on the dev
// server, the relays, a SQLite store, the JSONL score sink), the page built afresh from src/ui.
// Reviewers sign in from links, work with the keyboard alone, and what they send lands as seed
// 002 says: through the review path, as HUMAN scores with their config. The API's clock is the
// test's, so a lease or a sign-in expires when the test moves it. With EVALFLOW_WRITE_DOCS=1 the
// screenshots are written into docs/images (the README shows them); otherwise into .evalflow.

const writing = process.env.EVALFLOW_WRITE_DOCS === '1';
const shots = writing ? 'docs/images' : join('.evalflow', 'test', 'screenshots');
let clock = 0;
let harness: PageHarness;
let h: ApiHarness;
let browser: Browser;

beforeAll(async () => {
  harness = await startPageHarness(workbenchApp, { now: () => new Date(Date.now() + clock) });
  ({ h, browser } = harness);
  mkdirSync(shots, { recursive: true });
}, 180_000);
afterAll(async () => {
  await harness?.close();
});

/** A reviewer's own browser (a context: its own session storage), at 1280×900. */
async function reviewerBrowser(options: { bypassCSP?: boolean } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  // Before any of the page's code: what a script the page must never run would leave behind.
  await context.addInitScript(`
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
  `);
  return context;
}

async function signedIn(w: Workspace, reviewer: string, context?: BrowserContext): Promise<Page> {
  const page = await (context ?? (await reviewerBrowser())).newPage();
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  (page as Page & { dialogs?: string[] }).dialogs = dialogs;
  await page.goto((await signInLink(h, w, reviewer)).url);
  await page.getByTestId('queues').waitFor();
  return page;
}

/**
 * The list is read and its first row's button has the focus. The focus moves in an effect after
 * the table renders, so a Tab pressed on the table's first paint would start from the page's top.
 */
const queuesFocused = (page: Page) => page.locator('[data-testid=queues] button:focus').waitFor();

/** Opens a queue from the list with the keyboard: ↓ to its row, Enter on its Review button. */
async function openQueue(page: Page, queueId: string) {
  await queuesFocused(page);
  const rows = await page
    .locator('[data-queue-id]')
    .evaluateAll((all) => all.map((row) => row.getAttribute('data-queue-id')));
  for (let i = 0; i < rows.indexOf(queueId); i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/**
 * Waits until the item's first field has the focus: the page moves it there in an effect after a
 * new item's first paint, and until then keys go where the focus was (the last item's note, or
 * nowhere); the shortcuts dialog gives the focus back to where it was when it opened.
 */
const formFocused = (page: Page) =>
  page.locator('form [data-field]').first().locator(':focus').waitFor();

/** A verdict with the keyboard alone: an option by its number, stars typed, a note, submit. */
async function judge(page: Page, option: number, stars: string, note: string) {
  await formFocused(page);
  await page.keyboard.press(String(option));
  await page.keyboard.type(stars);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.type(note);
  await page.keyboard.press('Control+Enter');
}

const evaluate = <T>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe("the reviewers' page", () => {
  it('signs in from a link, keeps the token out of the address bar, and lists the queues with their progress', async () => {
    const w = workspace(h);
    const answers = await Promise.all([1, 2, 3].map((i) => answer(h, w, i)));
    await enqueue(h, w, 'answers', answers);
    const link = await signInLink(h, w, 'grace');
    const page = await (await reviewerBrowser()).newPage();
    await page.goto(link.url);
    await page.getByTestId('queues').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    expect(page.url()).not.toContain(link.token);
    expect(await evaluate(page, 'sessionStorage.getItem("evalflow.reviewer-token")')).toBe(
      link.token,
    );
    expect(await evaluate(page, 'document.cookie')).toBe('');
    const row = page.locator('[data-queue-id=answers]');
    await expect
      .poll(() => row.locator('td').allTextContents())
      .toEqual([
        'answer_review',
        '3',
        '0',
        expect.stringContaining('0'),
        '0',
        expect.stringContaining('Review'),
      ]);
    // A reload keeps the tab signed in; the token never rode on the URL the server saw.
    await page.reload();
    await page.getByTestId('queues').waitFor();
    await page.context().close();
  });

  it('reviews three items with the keyboard alone, skips one and revises one; each verdict reaches the scores sink as HUMAN with its config id', async () => {
    const w = workspace(h);
    const answers = [];
    for (const i of [1, 2, 3, 4, 5]) answers.push(await answer(h, w, i));
    await judged(h, w, answers);
    await enqueue(h, w, 'answers', answers);
    const page = await signedIn(w, 'grace');
    await evaluate(page, 'window.__stayed = true');
    await openQueue(page, 'answers');

    const seen = [await shownItem(page)];
    await page.getByText('How to judge an answer').waitFor();
    await page.screenshot({ path: join(shots, 'workbench-item.png'), fullPage: true });
    await judge(page, 1, '4', 'clear, and the date is right');
    seen.push((await nextShown(page, seen.at(-1) as string)) as string);
    await judge(page, 2, '2', 'promises a date it cannot know');
    seen.push((await nextShown(page, seen.at(-1) as string)) as string);
    await formFocused(page);
    await page.keyboard.press('s');
    seen.push((await nextShown(page, seen.at(-1) as string)) as string);
    await judge(page, 3, '3', 'not sure the order exists');
    seen.push((await nextShown(page, seen.at(-1) as string)) as string);
    // Five items in order, the third skipped: it comes back after the fifth.
    expect(new Set(seen).size).toBe(5);
    expect(await evaluate(page, 'window.__stayed')).toBe(true);
    expect(
      await evaluate<number>(page, 'performance.getEntriesByName("evalflow:next-item").length'),
    ).toBe(3);
    await expect
      .poll(() => page.getByTestId('announcement').textContent())
      .toContain('Verdict recorded');

    // Back to the queues (the leases go back), then My reviews, and a revision: keys only.
    await page.keyboard.press('Escape');
    await page.getByTestId('queues').waitFor();
    await expect
      .poll(() => page.locator('[data-queue-id=answers] td').allTextContents())
      .toEqual(['answer_review', '2', '0', '3', '1', expect.stringContaining('Review')]);
    // The list and a little below it: the rest of the window is empty.
    const bottom = await page
      .getByTestId('queues')
      .evaluate((table) => table.getBoundingClientRect().bottom);
    await page.screenshot({
      path: join(shots, 'workbench-queues.png'),
      clip: { x: 0, y: 0, width: 1280, height: Math.ceil(bottom) + 40 },
    });
    await queuesFocused(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const mine = page.getByTestId('my-reviews');
    await mine.waitFor();
    await expect.poll(() => mine.locator('> li').count()).toBe(3);
    await page.keyboard.press('Enter');
    await page.locator('.my-reviews form').waitFor();
    // The form takes the focus on the frame after it opens: keys pressed before then go nowhere.
    await expect
      .poll(() =>
        evaluate<boolean>(page, "document.activeElement?.closest('.my-reviews form') != null"),
      )
      .toBe(true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('announcement').textContent()).toContain('revised');

    const system = await w.key('system');
    const progress = await h.call('GET', '/v1/review-queues/answers', { key: system });
    expect(progress.body.progress).toMatchObject({ done: 3, skipped: 1 });
    expect(progress.body.reviewers).toEqual([
      expect.objectContaining({ reviewer: 'reviewer:grace', done: 3, skipped: 1 }),
    ]);

    // The sink holds each verdict's three fields as HUMAN scores named by their configs, the
    // revised one with its new value (the same scores, upserted).
    const configIds = (await h.call('GET', '/v1/score-configs', { key: system })).body.configs
      .map((config: { configId: string }) => config.configId)
      .filter((id: string) => id.startsWith(`${answerReview.name}.`));
    expect(configIds.sort()).toEqual([
      'answer_review.note',
      'answer_review.stars',
      'answer_review.verdict',
    ]);
    const sink = new JsonlScoreSink(h.scoresFile);
    const verdicts = (scores: { name: string; value: unknown }[]) =>
      scores.filter((score) => score.name === 'answer_review.verdict').map((score) => score.value);
    // The newest review was listed first: its verdict, unsure, went one option on (to pass).
    const human = await eventually(
      async () =>
        [...(await sink.all()).values()].filter(
          (score) => score.source.workspace_id === w.ws && score.source.score_source === 'HUMAN',
        ),
      (scores) => scores.length === 9 && verdicts(scores).sort().join() === 'fail,pass,pass',
    );
    expect(human.every((score) => configIds.includes(score.name))).toBe(true);
    expect(new Set(human.map((score) => score.source.actor))).toEqual(new Set(['reviewer:grace']));
    expect(new Set(human.map((score) => score.traceId)).size).toBe(3);
    await page.context().close();
  });

  it('shows the others’ verdicts on an item once the reviewer’s is recorded and not before, and announces it once, on that screen only', async () => {
    const w = workspace(h);
    const one = await answer(h, w, 1);
    // A blind queue of this workspace's own, two reviewers an item: linus (through the API) and grace.
    const admin = await w.key('admin');
    const queue = { feedbackType: 'answer_review', targetKinds: ['message'], reviewersPerItem: 2 };
    expect(
      (await h.call('PUT', '/v1/review-queues/together', { key: admin, body: queue })).status,
    ).toBe(200);
    await enqueue(h, w, 'together', [one]);
    const page = await signedIn(w, 'grace');
    await openQueue(page, 'together');
    const itemId = await shownItem(page);
    await page.getByText("other reviewers' verdicts show once you have given yours").waitFor();

    const linus = await w.key('reviewer:linus');
    await h.call('POST', '/v1/review-queues/together/claim', { key: linus });
    const given = await h.call('POST', `/v1/review-queues/together/items/${itemId}/submit`, {
      key: linus,
      body: {
        value: { verdict: 'fail', stars: 2, note: 'promises a date' },
        configId: 'answer_review',
      },
    });
    expect(given.status).toBe(200);
    // Grace has given none: linus's verdict is nowhere on her screen.
    expect(await page.getByTestId('reveal').count()).toBe(0);
    expect(await page.locator('body').textContent()).not.toContain('promises a date');

    await judge(page, 1, '4', 'clear');
    const reveal = page.getByTestId('reveal');
    await reveal.waitFor();
    expect(await reveal.locator('h2').textContent()).toBe(
      `How others judged message ${one.messageId} in thread ${one.threadId}`,
    );
    expect(await reveal.locator('li').allTextContents()).toEqual([
      'Reviewer 1 verdict: fail · stars: 2 · note: promises a date (differs from yours on verdict, stars)',
    ]);
    expect(await reveal.textContent()).toContain('Yours verdict: pass · stars: 4 · note: clear');
    mkdirSync('/work/notes/shots', { recursive: true });
    await page.screenshot({ path: '/work/notes/shots/reveal-after-verdict.png', fullPage: true });
    const announcement = page.getByTestId('announcement');
    expect(await announcement.getAttribute('aria-live')).toBe('polite');
    await expect
      .poll(() => announcement.textContent())
      .toBe(
        `Verdict recorded on message ${one.messageId} in thread ${one.threadId}. Another reviewer's verdict is shown.`,
      );
    await page.getByRole('button', { name: 'Dismiss' }).click();
    expect(await reveal.count()).toBe(0);

    // The next screen starts without the announcement: it belonged to the verdict's moment.
    await page.keyboard.press('Escape');
    await page.getByTestId('queues').waitFor();
    expect(await announcement.textContent()).toBe('');
    // My reviews shows the others' verdict beside hers, compared the same way.
    await page.getByRole('button', { name: 'My reviews in queue together' }).click();
    await expect
      .poll(() => page.getByTestId('others-verdicts').locator('li').allTextContents())
      .toEqual([
        'Reviewer 1 verdict: fail · stars: 2 · note: promises a date (differs from yours on verdict, stars)',
      ]);
    await page.screenshot({ path: '/work/notes/shots/reveal-my-reviews.png', fullPage: true });
    await page.context().close();
  });

  it('gives two reviewers on a one-reviewer queue never the same item, and every item to one of them', async () => {
    const w = workspace(h);
    const answers = [];
    for (const i of [1, 2, 3, 4, 5, 6]) answers.push(await answer(h, w, i));
    await enqueue(h, w, 'pairs', answers);
    const [grace, alan] = await Promise.all([signedIn(w, 'grace'), signedIn(w, 'alan')]);
    const work = async (page: Page) => {
      await openQueue(page, 'pairs');
      const seen: string[] = [];
      let shown: string | null = await Promise.race([
        shownItem(page),
        page
          .getByTestId('queue-empty')
          .waitFor()
          .then(() => null),
      ]);
      while (shown !== null) {
        seen.push(shown);
        await judge(page, 1, '5', '');
        shown = await nextShown(page, shown);
      }
      return seen;
    };
    const [byGrace, byAlan] = await Promise.all([work(grace), work(alan)]);
    expect(byGrace.filter((item) => byAlan.includes(item))).toEqual([]);
    expect(byGrace.length + byAlan.length).toBe(6);
    expect(byGrace.length).toBeGreaterThan(0);
    expect(byAlan.length).toBeGreaterThan(0);
    const progress = await h.call('GET', '/v1/review-queues/pairs', { key: await w.key('system') });
    expect(progress.body.progress).toMatchObject({ items: 6, itemsDone: 6, done: 6, pending: 0 });
    await grace.context().close();
    await alan.context().close();
  });

  it('keeps its lease with heartbeats while the item is open, and an item whose lease ran out goes to the next reviewer', async () => {
    const w = workspace(h);
    await enqueue(h, w, 'expiring', [await answer(h, w, 1)]);
    const grace = await signedIn(w, 'grace');
    const beat = () =>
      grace.waitForResponse((r) => r.url().endsWith('/heartbeat') && r.status() === 200, {
        timeout: 20_000,
      });
    await openQueue(grace, 'expiring');
    const item = await shownItem(grace);
    // The lease is 30 s, beaten every 10 s (each beat: 30 s from then). Moved on 15 s after each
    // beat, the clock is past the first lease's end at the next claim; grace still holds it.
    await beat();
    clock += 15_000;
    await beat();
    clock += 15_000;
    const alan = await signedIn(w, 'alan');
    await openQueue(alan, 'expiring');
    await alan.getByTestId('queue-empty').waitFor();
    // Past the lease with no beat in between: alan gets the item, and grace's next beat says so.
    clock += 60_000;
    await alan.keyboard.press('Escape');
    await openQueue(alan, 'expiring');
    expect(await shownItem(alan)).toBe(item);
    await grace.getByText('Your lease on this item ended').waitFor({ timeout: 20_000 });
    await grace.context().close();
    await alan.context().close();
  });

  it('shows a clear page, not a blank one, for a sign-in that expired or was never good', async () => {
    const w = workspace(h);
    const link = await signInLink(h, w, 'grace', 60);
    const page = await (await reviewerBrowser()).newPage();
    await page.goto(link.url);
    await page.getByTestId('queues').waitFor();
    clock += 120_000;
    await page.reload();
    const refused = page.getByTestId('sign-in-refused');
    await refused.waitFor();
    // In a reviewer's words: what happened and whom to ask; no engine's words, no command.
    const words = await refused.textContent();
    expect(words).toContain('Your sign-in link has expired');
    expect(words).toContain(
      'Ask the person who runs evalflow for your team for a new sign-in link',
    );
    expect(words).not.toMatch(/credential|evalflow reviewers|WORKSPACE|--/);
    await page.screenshot({ path: '/work/notes/shots/words-sign-in-expired.png' });
    expect(await evaluate(page, 'sessionStorage.length')).toBe(0);
    // A link opened in the same tab is the same page (a new fragment): it takes the new token.
    await page.goto(`${h.url}/ui/#token=esi_not-a-token`);
    await expect
      .poll(() => page.getByTestId('sign-in-refused').textContent())
      .toContain('This sign-in link is not valid');
    expect(await page.getByTestId('sign-in-refused').textContent()).not.toContain('malformed');
    await page.screenshot({ path: '/work/notes/shots/words-sign-in-not-valid.png' });
    expect(new URL(page.url()).hash).toBe('');
    await page.goto(`${h.url}/ui/`);
    await page.getByTestId('signed-out').waitFor();
    await page.context().close();
  });

  it('renders what agents and people wrote as text: a <script>, an <img onerror> and a javascript: link run nowhere', async () => {
    const w = workspace(h);
    const payload =
      'Refund sent. <script>window.__pwned = 1; alert(1)</script> ' +
      '<img src=x onerror="window.__pwned = 2; alert(2)"> ' +
      '<a href="javascript:window.__pwned = 3">track it</a> [or here](javascript:alert(4))';
    const target = await answer(h, w, 1, payload);
    const system = await w.key('system');
    await h.call('PUT', '/v1/artifacts/plan', {
      key: system,
      body: { kind: 'plan', data: { step: 'one' } },
    });
    await h.call('PUT', '/v1/artifacts/plan', {
      key: system,
      body: {
        kind: 'plan',
        data: {
          step: '<img src=x onerror="window.__pwned = 5">',
          html: '<script>alert(6)</script>',
        },
      },
    });
    await enqueue(h, w, 'answers', [target]);
    await h.call('POST', '/v1/review-queues/artifacts/items', {
      key: system,
      body: { targets: [{ kind: 'artifact', artifactId: 'plan', version: 2 }] },
    });
    // Once with the page's Content-Security-Policy, once without it: the page itself renders
    // text, whatever the policy would have stopped.
    for (const bypassCSP of [false, true]) {
      const page = await signedIn(
        w,
        bypassCSP ? 'alan' : 'grace',
        await reviewerBrowser({ bypassCSP }),
      );
      await openQueue(page, 'answers');
      await shownItem(page);
      const message = page.locator(`[data-message-id=${target.messageId}] .content`);
      expect(await message.textContent()).toBe(payload);
      expect(
        await page.getByText('<img src=x onerror="window.__pwned=1">').count(),
      ).toBeGreaterThan(0);
      await page.getByText('this link').click();
      await page.keyboard.press('Escape');
      await openQueue(page, 'artifacts');
      await page.getByTestId('artifact-diff').waitFor();
      expect(await page.getByTestId('artifact-diff').textContent()).toContain(
        '<script>alert(6)</script>',
      );
      expect(await evaluate(page, 'window.__pwned')).toBeUndefined();
      expect((page as Page & { dialogs?: string[] }).dialogs).toEqual([]);
      expect(
        await evaluate(page, 'document.querySelectorAll("img, iframe, object, embed").length'),
      ).toBe(0);
      expect(
        await evaluate(
          page,
          'document.querySelectorAll("[href^=javascript], [onerror], [onclick]").length',
        ),
      ).toBe(0);
      expect(
        await evaluate(page, '[...document.scripts].every((s) => s.src.includes("/ui/assets/"))'),
      ).toBe(true);
      expect(await evaluate(page, 'window.__violations')).toEqual([]);
      // Leaving gives the leases back, for the next pass's reviewer.
      await page.keyboard.press('Escape');
      for (const queueId of ['answers', 'artifacts']) {
        await eventually(
          () => h.call('GET', `/v1/review-queues/${queueId}`, { key: system }),
          (reply) => reply.body.progress.leased === 0,
        );
      }
      await page.context().close();
    }
  });

  it("shows a run's steps read from its agent's spans: each model and tool call, a failed one marked", async () => {
    const w = workspace(h);
    const { runId } = await answer(h, w, 1);
    const traceId = `${'ab'.repeat(14)}0001`;
    const at = (ms: number) => String(BigInt(1_767_225_600_000 + ms) * 1_000_000n);
    const span = (
      spanId: string,
      parentSpanId: string | null,
      name: string,
      attributes: object,
      startMs: number,
      endMs: number,
      failed = false,
    ) => ({
      trace_id: traceId,
      span_id: spanId,
      body: {
        traceId,
        spanId,
        parentSpanId,
        name,
        kind: 1,
        startNs: at(startMs),
        endNs: at(endMs),
        status: failed ? { code: 2, message: 'order 1001 is locked' } : { code: 0, message: '' },
        attributes,
        events: [],
      },
    });
    // As the OTLP receiver keeps them; `evalflow.run.id` names the run the API started.
    await h.engine.store.traceSpans.put(
      w.ws,
      [
        span(
          '00000000000000a1',
          null,
          'invoke_agent refunds',
          { 'gen_ai.operation.name': 'invoke_agent', 'evalflow.run.id': runId },
          0,
          4000,
        ),
        span(
          '00000000000000a2',
          '00000000000000a1',
          'chat gpt-4o',
          {
            'gen_ai.operation.name': 'chat',
            'gen_ai.request.model': 'gpt-4o',
            'gen_ai.usage.input_tokens': 310,
            'gen_ai.usage.output_tokens': 24,
          },
          100,
          1300,
        ),
        span(
          '00000000000000a3',
          '00000000000000a1',
          'execute_tool refund',
          {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': 'refund',
            'gen_ai.tool.call.arguments': '{"order":1001}',
          },
          1400,
          1650,
          true,
        ),
      ],
      [],
    );
    await h.call('POST', '/v1/review-queues/turns/items', {
      key: await w.key('system'),
      body: { targets: [{ kind: 'turn', runId }] },
    });
    const page = await signedIn(w, 'grace');
    await openQueue(page, 'turns');
    const steps = page.getByTestId('steps');
    await steps.waitFor();
    const rows = await steps
      .locator('tbody tr')
      .evaluateAll((all) =>
        all.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)),
      );
    expect(rows).toEqual([
      ['model', 'chat gpt-4o', '1.2 s', 'gpt-4o · 310 in, 24 out', 'ok'],
      ['tool', 'refund', '250 ms', '{"order":1001} → ', 'order 1001 is locked'],
    ]);
    expect(await steps.locator('tr.failed').count()).toBe(1);
    await page.context().close();
  });

  it("labels the form's fields by their descriptions and marks a turn as a whole run under review, a message as itself", async () => {
    const w = workspace(h);
    const [turn, message] = await Promise.all([answer(h, w, 1), answer(h, w, 2)]);
    await h.call('POST', '/v1/review-queues/turns/items', {
      key: await w.key('system'),
      body: { targets: [{ kind: 'turn', runId: turn.runId }] },
    });
    await enqueue(h, w, 'answers', [message]);
    const page = await signedIn(w, 'grace');
    await openQueue(page, 'turns');
    await formFocused(page);
    // The schema's .describe() texts name the fields; a field without one keeps its name.
    const labels = await page
      .locator('form [data-field]')
      .evaluateAll((all) =>
        all.map((field) => field.querySelector('legend, label')?.textContent?.trim()),
      );
    expect(labels).toEqual([
      'Does the answer do what was asked?',
      'How good is it (1 to 5)',
      'note',
    ]);
    // The whole run is under review: said once, above its first message, no message singled out.
    const marks = page.getByTestId('under-review');
    expect(await marks.allTextContents()).toEqual([
      expect.stringContaining('Under review: the whole turn'),
    ]);
    expect(await marks.textContent()).toContain(`run ${turn.runId}`);
    expect(await page.locator('.message.is-target').count()).toBe(2);
    expect(await page.locator('.message .message-meta .badge').count()).toBe(0);
    await page.screenshot({ path: '/work/notes/shots/words-labels-turn.png', fullPage: true });
    await page.keyboard.press('Escape');
    await openQueue(page, 'answers');
    await formFocused(page);
    // A message under review is that message, marked on it.
    const mark = page.getByTestId('under-review');
    expect(await mark.allTextContents()).toEqual(['under review']);
    expect(
      await page
        .locator(`[data-message-id=${message.messageId}] [data-testid=under-review]`)
        .count(),
    ).toBe(1);
    await page.context().close();
  });

  it('checks a verdict as the API does before sending, and brings a verdict the API still refuses back with its refusal', async () => {
    const w = workspace(h);
    await enqueue(h, w, 'answers', [await answer(h, w, 1), await answer(h, w, 2)]);
    const page = await signedIn(w, 'grace');
    await openQueue(page, 'answers');
    const first = await shownItem(page);
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/submit')) sent.push(request.postData() ?? '');
    });
    // Nothing picked, stars out of bounds: the page says so and sends nothing.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('9');
    await page.keyboard.press('Control+Enter');
    await page.getByText('choose one of pass, fail, unsure').waitFor();
    await page.getByText('at most 5').waitFor();
    expect(sent).toEqual([]);
    // 2.5 is within the bounds the config states; the type's schema wants a whole number. The
    // next item shows while the verdict is sent; the API's refusal brings this one back.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('1');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('2.5');
    await page.keyboard.press('Control+Enter');
    const refusal = page.getByTestId('refusal');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/The API refused this verdict: .+/);
    expect(await shownItem(page)).toBe(first);
    // The next item had been on screen meanwhile (the page measured it), then gave way.
    expect(
      await evaluate<number>(page, 'performance.getEntriesByName("evalflow:next-item").length'),
    ).toBe(1);
    expect(await page.locator('#field-stars').inputValue()).toBe('2.5');
    expect(await page.getByTestId('announcement').textContent()).toContain('refused');
    expect(sent).toHaveLength(1);
    // Corrected, it is taken; the item that waited comes next.
    await page.locator('#field-stars').focus();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('3');
    await page.keyboard.press('Control+Enter');
    const second = await nextShown(page, first);
    expect(second).not.toBeNull();
    await judge(page, 2, '2', '');
    expect(await nextShown(page, second as string)).toBeNull();
    expect(sent).toHaveLength(3);
    await page.context().close();
  });

  it('takes a pick, a typed number and Ctrl+Enter that come within one frame, each on the one before', async () => {
    const w = workspace(h);
    await enqueue(h, w, 'answers', [await answer(h, w, 1), await answer(h, w, 2)]);
    const page = await signedIn(w, 'grace');
    await openQueue(page, 'answers');
    const first = await shownItem(page);
    // One task of the page's: no render can come between the three.
    await evaluate(
      page,
      `(() => {
        document.querySelector('[data-field=verdict] input[value=pass]').click();
        const stars = document.querySelector('#field-stars');
        stars.value = '4';
        stars.dispatchEvent(new Event('input', { bubbles: true }));
        document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', ctrlKey: true, bubbles: true }));
      })()`,
    );
    expect(await nextShown(page, first)).not.toBeNull();
    await page.context().close();
  });

  it('lists every shortcut on ?, and has no critical accessibility violation on any screen', async () => {
    const w = workspace(h);
    const answers = [await answer(h, w, 1), await answer(h, w, 2)];
    await judged(h, w, answers);
    await enqueue(h, w, 'answers', answers);
    // axe-core is injected by the test, so this browser takes scripts from it.
    const page = await signedIn(w, 'grace', await reviewerBrowser({ bypassCSP: true }));
    await page.addScriptTag({
      path: createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    });
    const violations = async (screen: string) => {
      const found = await evaluate<{ id: string; impact: string; nodes: unknown[] }[]>(
        page,
        'axe.run(document).then((r) => r.violations.map(({ id, impact, nodes }) => ({ id, impact, nodes: nodes.map((n) => n.target) })))',
      );
      return { screen, critical: found.filter((v) => v.impact === 'critical'), all: found };
    };
    const results = [await violations('queues')];
    await openQueue(page, 'answers');
    await shownItem(page);
    await formFocused(page);
    results.push(await violations('item'));
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    for (const keys of ['1 – 9', 'Ctrl/⌘ + Enter', 's', '?', '↑ ↓']) {
      expect(await dialog.getByText(keys, { exact: true }).count(), keys).toBe(1);
    }
    results.push(await violations('shortcuts'));
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    const first = await shownItem(page);
    await judge(page, 1, '4', 'fine');
    // The next item takes the focus; until then Esc would only leave the note.
    await nextShown(page, first);
    await formFocused(page);
    await page.keyboard.press('Escape');
    await queuesFocused(page);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByTestId('my-reviews').waitFor();
    results.push(await violations('my reviews'));
    for (const result of results) expect(result.critical, result.screen).toEqual([]);
    await page.context().close();
  });

  // Last: the screenshots the tests above took are the README's (written with EVALFLOW_WRITE_DOCS).
  it("runs in Debian's Chromium, which setup makes sure of, and is shown in the README", () => {
    expect(ensureChromium({})).toBe(
      `chromium: ${CHROMIUM_PATH} (Debian's chromium; for the browser tests)`,
    );
    expect(browser.version()).toMatch(/^\d+\./);
    const readme = readFileSync('README.md', 'utf8');
    for (const image of ['workbench-queues.png', 'workbench-item.png']) {
      expect(readme).toContain(`](docs/images/${image})`);
      expect(existsSync(join('docs', 'images', image)), image).toBe(true);
    }
  });
});

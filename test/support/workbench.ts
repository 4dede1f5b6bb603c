import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ApiHarness } from './api.js';
import { eventually } from './processes.js';

// What the browser tests and the benchmark do around the page: a workspace with its keys, the
// answers reviewers judge (each a run that paused and resumed, rated by a user and judged by an
// evaluator), queued by hand, a reviewer's sign-in link, and reading the page's item.

export interface Workspace {
  ws: string;
  key(principal: string): Promise<string>;
}

let workspaces = 0;

/** A fresh workspace of the API, its keys made on demand. */
export function workspace(h: ApiHarness, name = 'wb'): Workspace {
  const ws = `${name}-${++workspaces}`;
  const keys = new Map<string, Promise<string>>();
  return {
    ws,
    key(principal) {
      if (!keys.has(principal)) keys.set(principal, h.key(principal, ws));
      return keys.get(principal) as Promise<string>;
    },
  };
}

async function call(h: ApiHarness, method: string, path: string, key: string, body?: unknown) {
  const reply = await h.call(method, path, { key, ...(body !== undefined ? { body } : {}) });
  expect(reply.status, `${method} ${path}: ${JSON.stringify(reply.body)}`).toBeLessThan(300);
  return reply.body;
}

export interface Answer {
  threadId: string;
  runId: string;
  messageId: string;
}

/**
 * Thread `t{i}`: a customer's question, a run that pauses for them and resumes, the assistant's
 * answer (`content`), a user's rating of it; the judge's verdict follows the run's end.
 */
export async function answer(
  h: ApiHarness,
  w: Workspace,
  i: number,
  content = `Your refund of order ${1000 + i} was sent today; it shows in 3 to 5 days.`,
): Promise<Answer> {
  const [agent, ada] = await Promise.all([w.key('agent'), w.key('user:ada')]);
  const threadId = `t${i}`;
  const runId = `r${i}`;
  const messageId = `a${i}`;
  await call(h, 'POST', '/v1/threads', agent, { threadId, title: `Refund for order ${1000 + i}` });
  // A trace, so the feedback on its messages becomes scores.
  const traceId = `${'ab'.repeat(14)}${i.toString(16).padStart(4, '0')}`;
  await call(h, 'POST', `/v1/threads/${threadId}/runs`, agent, { runId, traceId });
  await call(h, 'POST', `/v1/threads/${threadId}/messages`, agent, {
    role: 'ROLE_USER',
    content: `Where is the refund for order ${1000 + i}?`,
    runId,
  });
  await call(h, 'POST', `/v1/runs/${runId}/pause`, agent, { reason: 'looking the order up' });
  await call(h, 'POST', `/v1/threads/${threadId}/runs`, agent, { runId });
  await call(h, 'POST', `/v1/threads/${threadId}/messages`, agent, {
    messageId,
    role: 'ROLE_ASSISTANT',
    content,
    runId,
  });
  await call(h, 'POST', `/v1/runs/${runId}/end`, agent, { status: 'completed' });
  await call(h, 'PUT', `/v1/threads/${threadId}/messages/${messageId}/rating`, ada, {
    feedbackType: 'helpfulness',
    value: { helpful: i % 2 === 0, stars: 2 + (i % 4) },
  });
  return { threadId, runId, messageId };
}

/** Waits for the judge's verdict on each answer, so an item view shows it. */
export async function judged(h: ApiHarness, w: Workspace, answers: readonly Answer[]) {
  const system = await w.key('system');
  for (const { runId } of answers) {
    await eventually(
      () => h.call('GET', `/v1/runs/${runId}`, { key: system }),
      (reply) => reply.body.evaluations?.some((e: { state: string }) => e.state === 'recorded'),
    );
  }
}

/** Queues the answers in `queueId`, in order. */
export async function enqueue(h: ApiHarness, w: Workspace, queueId: string, answers: Answer[]) {
  const body = {
    targets: answers.map(({ threadId, messageId }) => ({ kind: 'message', threadId, messageId })),
  };
  return call(h, 'POST', `/v1/review-queues/${queueId}/items`, await w.key('system'), body);
}

/** A reviewer's sign-in link (the API's address and the page's path with a token). */
export async function signInLink(
  h: ApiHarness,
  w: Workspace,
  reviewer: string,
  expiresInSeconds?: number,
): Promise<{ url: string; token: string; expiresAt: string }> {
  const body = expiresInSeconds === undefined ? {} : { expiresInSeconds };
  const issued = await call(
    h,
    'POST',
    `/v1/reviewers/${reviewer}/sign-in`,
    await w.key('system'),
    body,
  );
  return { url: `${h.url}${issued.path}`, token: issued.token, expiresAt: issued.expiresAt };
}

/** The id of the item on the page's screen, once one is. */
export async function shownItem(page: Page): Promise<string> {
  const item = page.getByTestId('item');
  await item.waitFor();
  return (await item.getAttribute('data-item-id')) as string;
}

/** Waits until the page shows an item other than `before` (its id), or says the queue has none left (null). */
export async function nextShown(page: Page, before: string): Promise<string | null> {
  const other = page.locator(`[data-testid=item]:not([data-item-id="${before}"])`);
  const empty = page.getByTestId('queue-empty');
  await other.or(empty).waitFor();
  return (await empty.count()) > 0 ? null : other.getAttribute('data-item-id');
}

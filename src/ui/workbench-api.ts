import { EvalflowClient } from '../client/index.js';
import type { EvaluatorsApi } from './evaluators-data.js';
import type { JudgeActionsApi, JudgeVersionsApi } from './judge-versions-data.js';
import type { MyReviewsApi, QueueSummary } from './queue-types.js';
import type { QueueApi } from './review-session.js';

// The page's one way to the API: the HTTP SDK with the tab's token as its Bearer key. Writes
// carry Idempotency-Keys the page makes itself (crypto.randomUUID exists only on secure
// origins, and the API may be served on plain http inside a network), the same on each retry.

export interface WorkbenchApi
  extends QueueApi,
    MyReviewsApi,
    EvaluatorsApi,
    JudgeVersionsApi,
    JudgeActionsApi {
  queues(): Promise<QueueSummary[]>;
}

export function workbenchApi(origin: string, token: string): WorkbenchApi {
  const client = new EvalflowClient({
    baseUrl: origin,
    apiKey: token,
    // The window's own fetch, called as a function: a fetch taken off `window` and called as
    // a method of another object is refused by browsers ("Illegal invocation"). A verdict and a
    // lease given back are `keepalive`, so they still reach the API as the tab closes.
    fetch: (input, init) =>
      globalThis.fetch(
        input,
        /\/(submit|release)$/.test(String(input)) ? { ...init, keepalive: true } : init,
      ),
    retry: { maxAttempts: 3, initialDelayMs: 200 },
    timeoutMs: 15_000,
  });
  const once = () => ({ idempotencyKey: randomKey() });
  const queues = client.reviewQueues;
  // The queue writes still on their way: claims, releases, skips and verdicts. Leaving a queue
  // gives its leases back (and any claim still on its way is given back when it lands) while its
  // last verdict may still be on its way: the queue list and My reviews the reviewer goes to are
  // read once those have landed, or they would show leases as held and verdicts as not given.
  const writes = new Set<Promise<unknown>>();
  const tracked = <T>(write: Promise<T>): Promise<T> => {
    writes.add(write);
    write.finally(() => writes.delete(write)).catch(() => {});
    return write;
  };
  const landed = async () => {
    while (writes.size > 0) {
      await Promise.allSettled([...writes]);
      // What a landed claim leads to (its release, once the reviewer has left) starts in a
      // microtask of its own: wait those out before looking again.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  };
  return {
    queues: async () => {
      await landed();
      return (await queues.list()).queues;
    },
    claim: async (queueId) => (await tracked(queues.claim(queueId, once()))).item,
    item: (queueId, itemId) => queues.item(queueId, itemId),
    heartbeat: (queueId, itemId) => queues.heartbeat(queueId, itemId, once()),
    release: (queueId, itemId) => tracked(queues.release(queueId, itemId, once())),
    skip: (queueId, itemId) => tracked(queues.skip(queueId, itemId, once())),
    // One key per attempt (the transport keeps it across its own retries); the server derives
    // the review's request id from (queue, item, reviewer), so a submit sent twice records once.
    submit: (queueId, itemId, verdict) => tracked(queues.submit(queueId, itemId, verdict, once())),
    myReviews: async (queueId) => {
      await landed();
      const [{ queue }, { reviews }] = await Promise.all([
        queues.get(queueId),
        queues.myReviews(queueId),
      ]);
      // The config a verdict names is in an item's view (the queue's definition names its type).
      const first = reviews[0];
      const configId = first ? (await queues.item(queueId, first.itemId)).queue.configId : '';
      return { feedbackType: queue.feedbackType, configId, reviews };
    },
    scoreConfigs: async () => (await client.scoreConfigs.list()).configs,
    revise: (mine, review, value) =>
      client.reviews.revise(
        { target: review.target, feedbackType: mine.feedbackType, value, configId: mine.configId },
        once(),
      ),
    withdraw: (mine, review) =>
      client.reviews.withdraw({ target: review.target, feedbackType: mine.feedbackType }, once()),
    rules: async () => (await client.evaluationRules.list()).rules,
    summary: async (query) => (await client.scoresSummary(query)).groups,
    agreement: (request) => client.agreement(request),
    costs: (request) => client.costs(request),
    judgeVersions: async () => (await client.judgeVersions.list()).versions,
    judgeVersion: (id) => client.judgeVersions.get(id),
    backtest: (id, query) => client.judgeVersions.backtest(id, query),
    shadow: (id, targets) => client.evaluationRules.set(id, { targets, mode: 'shadow' }, once()),
    promoteOnBacktest: (id, { against, field, mapping }, gate) =>
      client.evaluationRules.promote(
        id,
        { against, field, mapping, backtest: true, ...gate },
        once(),
      ),
    conversation: (threadId) => client.conversation(threadId),
    run: (runId) => client.run(runId),
  };
}

/** 128 random bits as hex, from the browser's generator (on any origin). */
function randomKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

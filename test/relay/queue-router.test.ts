import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createFeedbackTypeRegistry,
  defineFeedbackType,
  ReviewQueueSchema,
} from '../../src/core/index.js';
import { QueueRouter } from '../../src/relay/index.js';
import {
  openSqliteStore,
  reviewItemId,
  type Store,
  staticScoreConfigs,
} from '../../src/store/index.js';
import { eventually } from '../support/processes.js';

// The router on a real store: it follows a workspace's log, puts routed targets into queues and
// settles reviewers' verdicts, at least once and nothing twice.

const verdict = defineFeedbackType({
  name: 'verdict',
  targets: ['turn', 'message'],
  source: 'HUMAN',
  configName: 'verdict',
  schema: z.object({ pass: z.boolean() }),
});
const stars = defineFeedbackType({
  name: 'stars',
  targets: ['message'],
  schema: z.object({ stars: z.int() }),
});
const defaults = [
  ReviewQueueSchema.parse({
    queue_id: 'runs',
    feedback_type: 'verdict',
    target_kinds: ['turn'],
    routing: [{ kind: 'completed_runs', sample_rate: 1 }],
  }),
];

let dir: string;
let store: Store;
let workspaces = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'evalflow-router-'));
  store = openSqliteStore(join(dir, 'router.db'), {
    feedbackTypes: createFeedbackTypeRegistry([verdict, stars]),
    scoreConfigs: staticScoreConfigs({ verdict: { archived: false } }),
    pollMs: 20,
  });
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const system = { kind: 'system', name: 'host' };
async function given(ws: string, actor: object, ...commands: object[]) {
  for (const command of commands) {
    const outcome = await store.executeUnchecked({ workspace_id: ws, actor, command });
    if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
  }
}
const finished = (run: string) => [
  { type: 'start_run', run_id: run, thread_id: 't' },
  {
    type: 'post_message',
    thread_id: 't',
    message_id: `${run}-a`,
    role: 'assistant',
    content: 'ok',
    run_id: run,
  },
  { type: 'end_run', run_id: run, status: 'completed' },
];
const items = async (ws: string, queue: string) =>
  (await store.reviewQueues.counts(ws, queue, new Date())).items;

describe('the queue router', () => {
  it('routes as events happen, into the config’s queues and the workspace’s own from when they are set', async () => {
    const ws = `router-${++workspaces}`;
    await given(ws, system, { type: 'create_thread', thread_id: 't' }, ...finished('r0'));
    const router = await new QueueRouter({ store, workspaceId: ws, queues: defaults }).follow();
    try {
      expect(
        await eventually(
          () => items(ws, 'runs'),
          (n) => n === 1,
          10_000,
        ),
      ).toBe(1);
      await given(ws, system, {
        type: 'set_review_queue',
        queue_id: 'low',
        feedback_type: 'verdict',
        target_kinds: ['message'],
        routing: [{ kind: 'rating_at_most', feedback_type: 'stars', field: 'stars', at_most: 2 }],
      });
      await given(ws, system, ...finished('r1'));
      await given(
        ws,
        { kind: 'user', id: 'ada' },
        {
          type: 'rate_message',
          thread_id: 't',
          message_id: 'r1-a',
          feedback_type: 'stars',
          value: { stars: 1 },
        },
      );
      const both = async () => [await items(ws, 'runs'), await items(ws, 'low')];
      expect(await eventually(both, ([runs, low]) => runs === 2 && low === 1, 10_000)).toEqual([
        2, 1,
      ]);
      const item = await store.reviewQueues.item(ws, 'low', reviewItemId('low', 'message:t/r1-a'));
      expect(item).toMatchObject({
        target: { kind: 'message', thread_id: 't', message_id: 'r1-a', run_id: 'r1' },
        enqueued_by: 'routing:rating_at_most',
      });
    } finally {
      await router.close();
    }
  });

  it('queues nothing twice when the log is routed again', async () => {
    const ws = `router-${++workspaces}`;
    await given(
      ws,
      system,
      { type: 'create_thread', thread_id: 't' },
      ...finished('r0'),
      ...finished('r1'),
    );
    await new QueueRouter({ store, workspaceId: ws, queues: defaults }).drain();
    // A second router from the start (another cursor): the same events, routed again.
    expect(
      await new QueueRouter({ store, workspaceId: ws, queues: defaults, cursor: 'again' }).drain(),
    ).toBeGreaterThan(0);
    expect(await store.reviewQueues.counts(ws, 'runs', new Date())).toMatchObject({
      items: 2,
      pending: 2,
    });
  });

  it('settles the slot a reviewer leases once their verdict is in the log', async () => {
    const ws = `router-${++workspaces}`;
    await given(ws, system, { type: 'create_thread', thread_id: 't' }, ...finished('r0'));
    const router = new QueueRouter({ store, workspaceId: ws, queues: defaults });
    await router.drain();
    const now = new Date();
    const claimed = await store.reviewQueues.claim({
      workspace_id: ws,
      queue_id: 'runs',
      reviewer: 'reviewer:grace',
      feedback_type: 'verdict',
      lease_ms: 60_000,
      now,
    });
    expect(claimed).not.toBeNull();
    await given(
      ws,
      { kind: 'reviewer', id: 'grace' },
      {
        type: 'give_feedback',
        feedback_type: 'verdict',
        target: { kind: 'turn', run_id: 'r0' },
        value: { pass: true },
      },
    );
    await router.drain();
    await new QueueRouter({ store, workspaceId: ws, queues: defaults, cursor: 'again' }).drain();
    expect(await store.reviewQueues.counts(ws, 'runs', now)).toMatchObject({
      items: 1,
      items_done: 1,
      done: 1,
    });
  });

  it('counts a verdict given outside the queue, and one given before its run was routed, once', async () => {
    const ws = `router-${++workspaces}`;
    await given(ws, system, { type: 'create_thread', thread_id: 't' }, ...finished('r0'));
    const router = new QueueRouter({ store, workspaceId: ws, queues: defaults });
    await router.drain();
    const review = (run: string) => ({
      type: 'give_feedback',
      feedback_type: 'verdict',
      target: { kind: 'turn', run_id: run },
      value: { pass: true },
    });
    const [start, ...end] = finished('r1');
    await given(ws, system, start as object);
    await given(ws, { kind: 'reviewer', id: 'grace' }, review('r0'), review('r1'));
    await given(ws, system, ...end);
    await router.drain();
    await new QueueRouter({ store, workspaceId: ws, queues: defaults, cursor: 'again' }).drain();
    expect(await store.reviewQueues.counts(ws, 'runs', new Date())).toMatchObject({
      items: 2,
      items_done: 2,
      done: 2,
    });
  });

  it('tells of a routed target it cannot queue, and queues the others', async () => {
    const ws = `router-${++workspaces}`;
    const warnings: string[] = [];
    await given(ws, system, { type: 'create_thread', thread_id: 't' }, ...finished('r0'), {
      type: 'set_review_queue',
      queue_id: 'low',
      feedback_type: 'verdict',
      target_kinds: ['message'],
      routing: [{ kind: 'rating_at_most', feedback_type: 'stars', field: 'stars', at_most: 2 }],
    });
    const ada = { kind: 'user', id: 'ada' };
    await given(
      ws,
      ada,
      {
        type: 'give_feedback',
        feedback_type: 'stars',
        target: { kind: 'message', thread_id: 't', message_id: 'never-posted' },
        value: { stars: 1 },
      },
      {
        type: 'rate_message',
        thread_id: 't',
        message_id: 'r0-a',
        feedback_type: 'stars',
        value: { stars: 2 },
      },
    );
    await new QueueRouter({
      store,
      workspaceId: ws,
      queues: [],
      onWarning: (line) => warnings.push(line),
    }).drain();
    expect(await items(ws, 'low')).toBe(1);
    expect(warnings).toEqual([
      `evalflow router: message:t/never-posted was routed to review queue low in workspace ${ws} but cannot be queued: message t/never-posted does not exist`,
    ]);
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdOf } from '../../src/api/routes/review-work.js';
import { targetKey } from '../../src/core/index.js';
import { ReviewClient } from '../../src/workflow-clients/index.js';
import { type ApiHarness, startApi } from '../support/api.js';
import { eventually } from '../support/processes.js';
import { queueApp } from '../support/queue-app.js';
import { devServerEnvironment, uniqueTaskQueue } from '../support/temporal.js';

// Many reviewers on one queue at once, and a restart with leases held, through real HTTP against
// the real API and engine on the dev server. What must hold: an item reaches at most
// reviewersPerItem distinct reviewers, never one twice, and is done exactly when it has them;
// a lease survives the restart (its holder keeps it, nobody else gets it) and no verdict is lost
// or recorded twice.

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await devServerEnvironment();
});
afterAll(async () => {
  await env?.teardown();
});

const verdict = { configId: 'review_verdict' };

/** Completed runs r0.. in thread t, each with a question and an answer, reported by the agent. */
async function runs(h: ApiHarness, agent: string, count: number) {
  await h.call('POST', '/v1/threads', { key: agent, body: { threadId: 't' } });
  for (let i = 0; i < count; i++) {
    await h.call('POST', '/v1/threads/t/runs', { key: agent, body: { runId: `r${i}` } });
    await h.call('POST', '/v1/threads/t/messages', {
      key: agent,
      body: { messageId: `m${i}`, role: 'ROLE_ASSISTANT', content: `answer ${i}`, runId: `r${i}` },
    });
    await h.call('POST', `/v1/runs/r${i}/end`, { key: agent, body: { status: 'completed' } });
  }
}

describe('a review queue under load', () => {
  it('gives twenty reviewers claiming at once each item at most twice, never to one reviewer twice, and finishes every item', async () => {
    const h = await startApi(env, queueApp);
    try {
      const ws = 'load';
      const agent = await h.key('agent', ws);
      const admin = await h.key('admin', ws);
      const items = 30;
      await runs(h, agent, items);
      expect(
        (
          await h.call('PUT', '/v1/review-queues/pair', {
            key: admin,
            body: { feedbackType: 'review_verdict', targetKinds: ['turn'], reviewersPerItem: 2 },
          })
        ).status,
      ).toBe(200);
      const added = await h.call('POST', '/v1/review-queues/pair/items', {
        key: admin,
        body: { filter: { kind: 'turn', statuses: ['completed'] } },
      });
      expect(added.body).toEqual({ added: items, alreadyQueued: 0 });

      const reviewers = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => ({
          id: `p${i}`,
          key: await h.key(`reviewer:p${i}`, ws),
        })),
      );
      const claimedBy = new Map<string, string[]>();
      const work = async ({ id, key }: { id: string; key: string }, index: number) => {
        let skipped = false;
        for (;;) {
          const claim = await h.call('POST', '/v1/review-queues/pair/claim', { key });
          expect(claim.status).toBe(200);
          const item = claim.body.item;
          if (item === null) return;
          claimedBy.set(item.itemId, [...(claimedBy.get(item.itemId) ?? []), id]);
          // Every fifth reviewer skips their first item once: it goes back to the end.
          if (index % 5 === 0 && !skipped) {
            skipped = true;
            expect(
              (await h.call('POST', `/v1/review-queues/pair/items/${item.itemId}/skip`, { key }))
                .status,
            ).toBe(200);
            continue;
          }
          const submitted = await h.call(
            'POST',
            `/v1/review-queues/pair/items/${item.itemId}/submit`,
            {
              key,
              body: {
                ...verdict,
                value: { verdict: (index + item.slotsDone) % 2 ? 'pass' : 'fail', note: id },
              },
            },
          );
          expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
        }
      };
      await Promise.all(reviewers.map(work));
      // A reviewer who found nothing while others still held leases may find work now.
      await Promise.all(reviewers.map(work));

      const store = h.engine.store;
      const given = (await store.events({ workspace_id: ws, limit: 100_000 })).filter(
        (e) => e.event.type === 'feedback_given' && e.actor.kind === 'reviewer',
      );
      expect(given).toHaveLength(items * 2);
      const byTarget = new Map<string, string[]>();
      for (const e of given) {
        if (e.event.type !== 'feedback_given' || e.actor.kind !== 'reviewer') continue;
        const key = targetKey(e.event.target);
        byTarget.set(key, [...(byTarget.get(key) ?? []), e.actor.id]);
      }
      expect(byTarget.size).toBe(items);
      for (const [key, ids] of byTarget) expect(new Set(ids).size, key).toBe(2);
      for (const itemId of claimedBy.keys()) {
        const item = await store.reviewQueues.item(ws, 'pair', itemId);
        expect(item?.slots_done).toBe(2);
        const holders = item?.slot_states.map((slot) => slot.holder?.replace('reviewer:', ''));
        expect(new Set(holders).size).toBe(2);
        expect(holders?.sort()).toEqual([...new Set(byTarget.get(item?.target_key ?? ''))].sort());
      }
      const progress = await h.call('GET', '/v1/review-queues/pair', { key: admin });
      expect(progress.body.progress).toMatchObject({
        items,
        itemsDone: items,
        pending: 0,
        leased: 0,
        done: items * 2,
        skipped: 4,
      });
      const perReviewer = progress.body.reviewers as { reviewer: string; done: number }[];
      expect(perReviewer.reduce((sum, r) => sum + r.done, 0)).toBe(items * 2);
    } finally {
      await h.close();
    }
  });

  it('keeps every lease across a restart of the API and the engine, losing no verdict and recording none twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evalflow-restart-'));
    const taskQueue = uniqueTaskQueue('restart');
    let clock = Date.parse('2026-05-01T09:00:00Z');
    const options = { dir, taskQueue, now: () => new Date(clock) };
    let h = await startApi(env, queueApp, options);
    try {
      const ws = 'restart';
      const agent = await h.key('agent', ws);
      const admin = await h.key('admin', ws);
      const keys = Object.fromEntries(
        await Promise.all(
          ['a', 'b', 'c', 'd'].map(async (id) => [id, await h.key(`reviewer:${id}`, ws)]),
        ),
      ) as Record<string, string>;
      await runs(h, agent, 5);
      await h.call('POST', '/v1/review-queues/triage/items', {
        key: admin,
        body: { filter: { kind: 'turn' } },
      });
      const claim = async (id: string) =>
        (await h.call('POST', '/v1/review-queues/triage/claim', { key: keys[id] as string })).body
          .item;
      const held = {
        a: await claim('a'),
        b: await claim('b'),
        c: await claim('c'),
        d: await claim('d'),
      };
      // d's verdict is recorded by the review path, but the API stops before it marks the slot.
      const reviews = new ReviewClient(env.client, h.engine.store, taskQueue);
      const dValue = { verdict: 'pass' as const, note: 'd' };
      const dItem = await h.engine.store.reviewQueues.item(ws, 'triage', held.d.itemId);
      await reviews.submit(
        ws,
        dItem?.target as never,
        { id: 'd' },
        {
          feedback_type: 'review_verdict',
          value: dValue,
          request_id: requestIdOf(ws, 'triage', held.d.itemId, 'reviewer:d', dValue),
        },
      );
      await h.close();

      clock += 5 * 60_000;
      h = await startApi(env, queueApp, options);
      // The leases held before are held still: the one item left is the only one handed out.
      const e = await h.key('reviewer:e', ws);
      const next = (await h.call('POST', '/v1/review-queues/triage/claim', { key: e })).body.item;
      expect(next).not.toBeNull();
      expect([held.a.itemId, held.b.itemId, held.c.itemId, held.d.itemId]).not.toContain(
        next.itemId,
      );
      expect(
        (await h.call('POST', '/v1/review-queues/triage/claim', { key: e })).body.item,
      ).toBeNull();
      // a keeps its lease with a heartbeat; b submits; c lets it go; d's submit, retried, records once.
      const beat = await h.call(
        'POST',
        `/v1/review-queues/triage/items/${held.a.itemId}/heartbeat`,
        { key: keys.a as string },
      );
      expect(beat.body).toEqual({
        itemId: held.a.itemId,
        leaseExpiresAt: new Date(clock + 15 * 60_000).toISOString(),
      });
      const submit = (id: string, itemId: string, value: object) =>
        h.call('POST', `/v1/review-queues/triage/items/${itemId}/submit`, {
          key: keys[id] ?? e,
          body: { ...verdict, value },
        });
      expect((await submit('b', held.b.itemId, { verdict: 'fail' })).body).toMatchObject({
        done: true,
      });
      expect(
        (
          await h.call('POST', `/v1/review-queues/triage/items/${held.c.itemId}/release`, {
            key: keys.c as string,
          })
        ).status,
      ).toBe(200);
      const retried = await submit('d', held.d.itemId, dValue);
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({ done: true, slotsDone: 1 });
      expect((await submit('a', held.a.itemId, { verdict: 'pass' })).body).toMatchObject({
        done: true,
      });
      expect((await submit('e', next.itemId, { verdict: 'pass' })).body).toMatchObject({
        done: true,
      });
      const c = await claim('c');
      expect(c.itemId).toBe(held.c.itemId);
      expect((await submit('c', c.itemId, { verdict: 'pass' })).body).toMatchObject({ done: true });

      const given = (await h.engine.store.events({ workspace_id: ws, limit: 10_000 })).filter(
        (ev) => ev.event.type === 'feedback_given' && ev.actor.kind === 'reviewer',
      );
      expect(given.map((ev) => (ev.actor as { id: string }).id).sort()).toEqual([
        'a',
        'b',
        'c',
        'd',
        'e',
      ]);
      const progress = await eventually(
        async () => (await h.call('GET', '/v1/review-queues/triage', { key: admin })).body.progress,
        (p) => p.itemsDone === 5,
        10_000,
      );
      expect(progress).toMatchObject({ items: 5, itemsDone: 5, pending: 0, leased: 0, done: 5 });
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Target } from '../../src/core/index.js';
import type { Commands, EntityReads, EvaluationRecords } from '../../src/store/index.js';
import { reviewItemId, type Store, staticScoreConfigs } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = Commands &
  Pick<EntityReads, 'feedback' | 'views'> &
  Pick<EvaluationRecords, 'reviewQueues'>;

// The review queues' part of the store (items, slots, leases, progress), run unchanged against
// every adapter (sqlite.test.ts, postgres.test.ts). Every time-dependent call is given `now`, so
// a lease's expiry is tested by moving that clock, never by sleeping.

let counter = 0;
const freshWorkspace = () => `rq-${Date.now().toString(36)}-${++counter}`;
const system = { kind: 'system', name: 'system' } as const;
const MINUTE = 60_000;
const start = Date.parse('2026-05-01T09:00:00Z');
const at = (ms: number) => new Date(start + ms);
const turn = (run_id: string): Target => ({ kind: 'turn', run_id });

export function reviewQueuesContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} review queues`, () => {
    let store: Opened<Ports>;
    beforeAll(async () => {
      store = await open({
        feedbackTypes: conformanceFeedbackTypes(),
        scoreConfigs: staticScoreConfigs({
          review: { archived: false },
          escalation: { archived: false },
        }),
      });
    });
    afterAll(async () => {
      await store?.close();
    });

    const execute = async (workspace_id: string, actor: object, command: object) => {
      const outcome = await store.executeUnchecked({ workspace_id, actor, command });
      if (outcome.type !== 'recorded') throw new Error(JSON.stringify(outcome));
      return outcome;
    };

    /** A workspace with `runs` completed runs r0, r1, ... in one thread, queued in `queue`. */
    async function queued(runs: number, slots = 1, queue = 'q') {
      const ws = freshWorkspace();
      await execute(ws, system, { type: 'create_thread', thread_id: 't' });
      const targets: Target[] = [];
      for (let i = 0; i < runs; i++) {
        await execute(ws, system, { type: 'start_run', run_id: `r${i}`, thread_id: 't' });
        targets.push(turn(`r${i}`));
      }
      const items = await store.reviewQueues.enqueue({
        workspace_id: ws,
        queue_id: queue,
        feedback_type: 'review',
        slots,
        targets,
        enqueued_by: 'system:test',
        now: at(0),
      });
      if (!Array.isArray(items)) throw new Error(JSON.stringify(items));
      return { ws, items };
    }

    const claim = (ws: string, reviewer: string, now = at(0), lease = 10 * MINUTE) =>
      store.reviewQueues.claim({
        workspace_id: ws,
        queue_id: 'q',
        reviewer,
        feedback_type: 'review',
        lease_ms: lease,
        now,
      });
    const held = (ws: string, item_id: string, reviewer: string, now = at(0)) => ({
      workspace_id: ws,
      queue_id: 'q',
      item_id,
      reviewer,
      now,
    });
    const runOf = (claimed: Awaited<ReturnType<typeof claim>>) =>
      claimed === null ? null : (claimed.item.target as { run_id: string }).run_id;

    it('queues a target once per queue, whoever adds it, under an id derived from both', async () => {
      const { ws, items } = await queued(2);
      expect(items.map((item) => item.added)).toEqual([true, true]);
      expect(items[0]?.item_id).toBe(reviewItemId('q', 'turn:r0'));
      const again = await store.reviewQueues.enqueue({
        workspace_id: ws,
        queue_id: 'q',
        feedback_type: 'review',
        slots: 1,
        targets: [turn('r1'), turn('r1'), turn('r0')],
        enqueued_by: 'routing:completed_runs',
        now: at(MINUTE),
      });
      expect(again).toEqual([
        { item_id: reviewItemId('q', 'turn:r1'), target: turn('r1'), added: false },
        { item_id: reviewItemId('q', 'turn:r1'), target: turn('r1'), added: false },
        { item_id: reviewItemId('q', 'turn:r0'), target: turn('r0'), added: false },
      ]);
      const elsewhere = await store.reviewQueues.enqueue({
        workspace_id: ws,
        queue_id: 'other',
        feedback_type: 'review',
        slots: 1,
        targets: [turn('r0')],
        enqueued_by: 'system:test',
        now: at(0),
      });
      expect(elsewhere).toMatchObject([{ added: true }]);
      expect((await store.reviewQueues.counts(ws, 'q', at(0))).items).toBe(2);
    });

    it('refuses a target that does not exist and queues none of the others', async () => {
      const { ws } = await queued(1);
      const refused = await store.reviewQueues.enqueue({
        workspace_id: ws,
        queue_id: 'fresh',
        feedback_type: 'review',
        slots: 1,
        targets: [turn('r0'), turn('nope')],
        enqueued_by: 'system:test',
        now: at(0),
      });
      expect(refused).toMatchObject({ type: 'not_found', entity: 'run', id: 'nope' });
      expect((await store.reviewQueues.counts(ws, 'fresh', at(0))).items).toBe(0);
      const message = await store.reviewQueues.enqueue({
        workspace_id: ws,
        queue_id: 'fresh',
        feedback_type: 'review',
        slots: 1,
        targets: [{ kind: 'message', thread_id: 't', message_id: 'm9', run_id: null }],
        enqueued_by: 'system:test',
        now: at(0),
      });
      expect(message).toMatchObject({ type: 'not_found', entity: 'message', id: 't/m9' });
    });

    it('keeps a message target as it was posted, with its run', async () => {
      const { ws } = await queued(1);
      await execute(ws, system, {
        type: 'post_message',
        thread_id: 't',
        message_id: 'm1',
        role: 'assistant',
        content: 'Hi.',
        run_id: 'r0',
      });
      const [item] = (await store.reviewQueues.enqueue({
        workspace_id: ws,
        queue_id: 'q',
        feedback_type: 'review',
        slots: 1,
        targets: [{ kind: 'message', thread_id: 't', message_id: 'm1', run_id: null }],
        enqueued_by: 'system:test',
        now: at(0),
      })) as { target: Target }[];
      expect(item?.target).toEqual({
        kind: 'message',
        thread_id: 't',
        message_id: 'm1',
        run_id: 'r0',
      });
    });

    it('hands items out front to back, each slot to one reviewer, then nothing', async () => {
      const { ws } = await queued(3);
      const first = await claim(ws, 'reviewer:a');
      expect(first).toMatchObject({
        item: { target: turn('r0'), slots: 1, slots_done: 0 },
        slot: 0,
        lease_expires_at: at(10 * MINUTE).toISOString(),
      });
      expect(runOf(await claim(ws, 'reviewer:b'))).toBe('r1');
      expect(runOf(await claim(ws, 'reviewer:a'))).toBe('r2');
      expect(await claim(ws, 'reviewer:c')).toBeNull();
    });

    it('gives an item needing two verdicts to two reviewers, never one twice', async () => {
      const { ws } = await queued(2, 2);
      const a1 = await claim(ws, 'reviewer:a');
      const a2 = await claim(ws, 'reviewer:a');
      expect([runOf(a1), runOf(a2)]).toEqual(['r0', 'r1']);
      expect(await claim(ws, 'reviewer:a')).toBeNull();
      const b = [await claim(ws, 'reviewer:b'), await claim(ws, 'reviewer:b')];
      expect(b.map(runOf)).toEqual(['r0', 'r1']);
      expect(await claim(ws, 'reviewer:c')).toBeNull();
    });

    it('lets twenty reviewers claiming at once take twenty different slots', async () => {
      const { ws } = await queued(25);
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => claim(ws, `reviewer:p${i}`)),
      );
      const runs = claims.map(runOf);
      expect(runs).not.toContain(null);
      expect(new Set(runs).size).toBe(20);
      expect((await store.reviewQueues.counts(ws, 'q', at(0))).leased).toBe(20);
    });

    it('never gives one reviewer two slots of an item, even from claims made at once', async () => {
      const { ws } = await queued(1, 3);
      const claims = await Promise.all(Array.from({ length: 6 }, () => claim(ws, 'reviewer:a')));
      expect(claims.filter((c) => c !== null)).toHaveLength(1);
    });

    it('hands an expired lease out again, and its former holder can no longer use it', async () => {
      const { ws } = await queued(2);
      const a = await claim(ws, 'reviewer:a', at(0), 10 * MINUTE);
      const itemId = a?.item.item_id as string;
      // Still live: the next reviewer gets the next item.
      expect(runOf(await claim(ws, 'reviewer:b', at(9 * MINUTE)))).toBe('r1');
      const later = at(10 * MINUTE);
      const c = await claim(ws, 'reviewer:c', later);
      expect(c?.item.item_id).toBe(itemId);
      expect(
        await store.reviewQueues.heartbeat({
          ...held(ws, itemId, 'reviewer:a', later),
          lease_ms: MINUTE,
        }),
      ).toBeNull();
      expect(await store.reviewQueues.release(held(ws, itemId, 'reviewer:a', later))).toBe(false);
      expect(await store.reviewQueues.skip(held(ws, itemId, 'reviewer:a', later))).toBe(false);
      const counts = await store.reviewQueues.reviewerCounts(ws, 'q', later);
      expect(counts.map((r) => [r.reviewer, r.leased])).toEqual([
        ['reviewer:b', 1],
        ['reviewer:c', 1],
      ]);
    });

    it('counts a lease past its end as pending before anyone claims it again', async () => {
      const { ws } = await queued(1);
      await claim(ws, 'reviewer:a', at(0), MINUTE);
      expect(await store.reviewQueues.counts(ws, 'q', at(30_000))).toMatchObject({
        pending: 0,
        leased: 1,
      });
      expect(await store.reviewQueues.counts(ws, 'q', at(MINUTE))).toMatchObject({
        pending: 1,
        leased: 0,
      });
    });

    it('extends a live lease with a heartbeat', async () => {
      const { ws } = await queued(1);
      const a = await claim(ws, 'reviewer:a', at(0), MINUTE);
      const itemId = a?.item.item_id as string;
      expect(
        await store.reviewQueues.heartbeat({
          ...held(ws, itemId, 'reviewer:a', at(50_000)),
          lease_ms: MINUTE,
        }),
      ).toBe(at(50_000 + MINUTE).toISOString());
      expect(await claim(ws, 'reviewer:b', at(100_000))).toBeNull();
      expect(
        await store.reviewQueues.heartbeat({ ...held(ws, itemId, 'reviewer:b'), lease_ms: 1 }),
      ).toBeNull();
    });

    it('returns a released item to its place and a skipped one to the end, counting the skip', async () => {
      const { ws } = await queued(3);
      const first = await claim(ws, 'reviewer:a');
      const r0 = first?.item.item_id as string;
      expect(await store.reviewQueues.release(held(ws, r0, 'reviewer:a'))).toBe(true);
      expect(runOf(await claim(ws, 'reviewer:b'))).toBe('r0');
      const r1 = (await claim(ws, 'reviewer:a'))?.item.item_id as string;
      expect(await store.reviewQueues.skip(held(ws, r1, 'reviewer:a'))).toBe(true);
      expect(runOf(await claim(ws, 'reviewer:c'))).toBe('r2');
      expect(runOf(await claim(ws, 'reviewer:a'))).toBe('r1');
      expect((await store.reviewQueues.counts(ws, 'q', at(0))).skipped).toBe(1);
      const a = (await store.reviewQueues.reviewerCounts(ws, 'q', at(0))).find(
        (r) => r.reviewer === 'reviewer:a',
      );
      expect(a).toMatchObject({ leased: 1, skipped: 1 });
    });

    it('marks a slot done once, and the item done when every slot is', async () => {
      const { ws } = await queued(1, 2);
      const itemId = (await claim(ws, 'reviewer:a'))?.item.item_id as string;
      await claim(ws, 'reviewer:b');
      expect(await store.reviewQueues.complete(held(ws, itemId, 'reviewer:a', at(MINUTE)))).toEqual(
        {
          state: 'done',
          slots: 2,
          slots_done: 1,
        },
      );
      expect(await store.reviewQueues.complete(held(ws, itemId, 'reviewer:a', at(MINUTE)))).toEqual(
        {
          state: 'already',
          slots: 2,
          slots_done: 1,
        },
      );
      expect((await store.reviewQueues.counts(ws, 'q', at(MINUTE))).items_done).toBe(0);
      // b's lease ran out, but no one took the slot: b's verdict still fills it.
      expect(
        await store.reviewQueues.complete(held(ws, itemId, 'reviewer:b', at(61 * MINUTE))),
      ).toEqual({
        state: 'done',
        slots: 2,
        slots_done: 2,
      });
      expect(await store.reviewQueues.counts(ws, 'q', at(61 * MINUTE))).toMatchObject({
        items: 1,
        items_done: 1,
        pending: 0,
        leased: 0,
        done: 2,
        done_last_hour: 1,
        done_last_day: 2,
      });
      expect(await claim(ws, 'reviewer:c', at(61 * MINUTE))).toBeNull();
      const item = await store.reviewQueues.item(ws, 'q', itemId);
      expect(item?.slot_states.map((slot) => [slot.state, slot.holder])).toEqual([
        ['done', 'reviewer:a'],
        ['done', 'reviewer:b'],
      ]);
      expect(await store.reviewQueues.reviewedBy(ws, 'q', 'reviewer:a', 10)).toEqual([
        { item_id: itemId, target: turn('r0'), done_at: at(MINUTE).toISOString() },
      ]);
    });

    it('gives a verdict whose slot was taken meanwhile any open slot, else says it is over', async () => {
      const { ws } = await queued(1, 1);
      const itemId = (await claim(ws, 'reviewer:a', at(0), MINUTE))?.item.item_id as string;
      await claim(ws, 'reviewer:b', at(MINUTE), MINUTE);
      expect(
        await store.reviewQueues.complete(held(ws, itemId, 'reviewer:b', at(MINUTE))),
      ).toMatchObject({
        state: 'done',
      });
      expect(await store.reviewQueues.complete(held(ws, itemId, 'reviewer:a', at(MINUTE)))).toEqual(
        {
          state: 'over',
          slots: 1,
          slots_done: 1,
        },
      );
    });

    it('passes over a target with the reviewer’s verdict, and an expired lease whose holder’s verdict is recorded until it is settled', async () => {
      const { ws } = await queued(2);
      const a = await claim(ws, 'reviewer:a', at(0), MINUTE);
      const itemId = a?.item.item_id as string;
      // a's verdict is recorded (by the review path) but the slot is not marked: a crash, say.
      await execute(
        ws,
        { kind: 'reviewer', id: 'a' },
        {
          type: 'give_feedback',
          feedback_type: 'review',
          target: turn('r0'),
          value: { approved: true },
        },
      );
      expect(runOf(await claim(ws, 'reviewer:b', at(2 * MINUTE)))).toBe('r1');
      expect(await claim(ws, 'reviewer:c', at(2 * MINUTE))).toBeNull();
      expect(
        await store.reviewQueues.settle({
          workspace_id: ws,
          queue_ids: ['q', 'absent'],
          feedback_type: 'review',
          target_key: 'turn:r0',
          reviewer: 'reviewer:a',
          now: at(2 * MINUTE),
        }),
      ).toBe(1);
      expect((await store.reviewQueues.item(ws, 'q', itemId))?.slots_done).toBe(1);
      // A reviewer who reviewed a target by hand is never handed its item.
      const { ws: other } = await queued(1);
      await execute(
        other,
        { kind: 'reviewer', id: 'd' },
        {
          type: 'give_feedback',
          feedback_type: 'review',
          target: turn('r0'),
          value: { approved: false },
        },
      );
      expect(await claim(other, 'reviewer:d')).toBeNull();
      expect(runOf(await claim(other, 'reviewer:e'))).toBe('r0');
    });

    /** Records reviewer `id`'s verdict of the queues' type on run `run` (outside any claim). */
    const review = (ws: string, id: string, run: string) =>
      execute(
        ws,
        { kind: 'reviewer', id },
        {
          type: 'give_feedback',
          feedback_type: 'review',
          target: turn(run),
          value: { approved: true },
        },
      );
    const settle = (ws: string, reviewer: string, run: string, now = at(0)) =>
      store.reviewQueues.settle({
        workspace_id: ws,
        queue_ids: ['q'],
        feedback_type: 'review',
        target_key: `turn:${run}`,
        reviewer,
        now,
      });
    const slotsOf = async (ws: string, run: string) =>
      (await store.reviewQueues.item(ws, 'q', reviewItemId('q', `turn:${run}`)))?.slot_states.map(
        (slot) => [slot.state, slot.holder],
      );

    it('counts a verdict given outside a claim: it fills a free slot, the last one closes the item', async () => {
      const { ws } = await queued(2, 2);
      await review(ws, 'a', 'r0');
      expect(await settle(ws, 'reviewer:a', 'r0', at(MINUTE))).toBe(1);
      expect(await settle(ws, 'reviewer:a', 'r0', at(2 * MINUTE))).toBe(0);
      expect(await slotsOf(ws, 'r0')).toEqual([
        ['done', 'reviewer:a'],
        ['free', null],
      ]);
      // a is never handed r0 again; b takes its last slot.
      expect(runOf(await claim(ws, 'reviewer:a'))).toBe('r1');
      await review(ws, 'b', 'r0');
      expect(await settle(ws, 'reviewer:b', 'r0', at(MINUTE))).toBe(1);
      expect(await store.reviewQueues.counts(ws, 'q', at(MINUTE))).toMatchObject({
        items: 2,
        items_done: 1,
        pending: 1,
        leased: 1,
        done: 2,
      });
      expect(runOf(await claim(ws, 'reviewer:c', at(MINUTE)))).toBe('r1');
      expect(await claim(ws, 'reviewer:d', at(MINUTE))).toBeNull();
      // A verdict the queue has no slot for counts nowhere.
      await review(ws, 'e', 'r0');
      expect(await settle(ws, 'reviewer:e', 'r0', at(MINUTE))).toBe(0);
      expect(
        (await store.reviewQueues.item(ws, 'q', reviewItemId('q', 'turn:r0')))?.slots_done,
      ).toBe(2);
    });

    it('counts a verdict on a slot the reviewer leases, else ends another reviewer’s live lease when no slot is open', async () => {
      const { ws } = await queued(2, 1);
      const b = await claim(ws, 'reviewer:b', at(0), 10 * MINUTE);
      expect(runOf(b)).toBe('r0');
      await review(ws, 'a', 'r0');
      expect(await settle(ws, 'reviewer:a', 'r0', at(MINUTE))).toBe(1);
      expect(await slotsOf(ws, 'r0')).toEqual([['done', 'reviewer:a']]);
      const bHeld = held(ws, b?.item.item_id as string, 'reviewer:b', at(2 * MINUTE));
      expect(await store.reviewQueues.heartbeat({ ...bHeld, lease_ms: MINUTE })).toBeNull();
      // The verdict of a reviewer holding the lease fills that very slot.
      const c = await claim(ws, 'reviewer:c', at(MINUTE));
      expect(runOf(c)).toBe('r1');
      await review(ws, 'c', 'r1');
      expect(await settle(ws, 'reviewer:c', 'r1', at(2 * MINUTE))).toBe(1);
      expect(await slotsOf(ws, 'r1')).toEqual([['done', 'reviewer:c']]);
      expect((await store.reviewQueues.counts(ws, 'q', at(2 * MINUTE))).items_done).toBe(2);
    });

    it('never takes the lease of a holder whose verdict is recorded, waiting to be settled', async () => {
      const { ws } = await queued(1, 1);
      await claim(ws, 'reviewer:b', at(0), MINUTE);
      await review(ws, 'b', 'r0');
      await review(ws, 'a', 'r0');
      expect(await settle(ws, 'reviewer:a', 'r0', at(2 * MINUTE))).toBe(0);
      expect(await settle(ws, 'reviewer:b', 'r0', at(2 * MINUTE))).toBe(1);
      expect(await slotsOf(ws, 'r0')).toEqual([['done', 'reviewer:b']]);
    });

    it('counts reviewers’ verdicts given before a target was queued, once, up to its slots', async () => {
      const ws = freshWorkspace();
      await execute(ws, system, { type: 'create_thread', thread_id: 't' });
      for (const run of ['r0', 'r1', 'r2']) {
        await execute(ws, system, { type: 'start_run', run_id: run, thread_id: 't' });
      }
      await review(ws, 'a', 'r0');
      await review(ws, 'a', 'r1');
      await review(ws, 'b', 'r1');
      await review(ws, 'c', 'r1');
      // A verdict of another type is not the queue's.
      await execute(
        ws,
        { kind: 'reviewer', id: 'a' },
        {
          type: 'give_feedback',
          feedback_type: 'escalation',
          target: turn('r2'),
          value: { needed: true },
        },
      );
      const enqueue = (targets: Target[]) =>
        store.reviewQueues.enqueue({
          workspace_id: ws,
          queue_id: 'q',
          feedback_type: 'review',
          slots: 2,
          targets,
          enqueued_by: 'system:test',
          now: at(MINUTE),
        });
      await enqueue([turn('r0')]);
      expect(
        await store.reviewQueues.enqueueMatching({
          workspace_id: ws,
          queue_id: 'q',
          feedback_type: 'review',
          slots: 2,
          filter: { kind: 'turn' },
          enqueued_by: 'system:test',
          now: at(MINUTE),
        }),
      ).toEqual({ added: 2, already_queued: 1 });
      await enqueue([turn('r0'), turn('r1')]);
      expect(await slotsOf(ws, 'r0')).toEqual([
        ['done', 'reviewer:a'],
        ['free', null],
      ]);
      expect(await slotsOf(ws, 'r1')).toEqual([
        ['done', 'reviewer:a'],
        ['done', 'reviewer:b'],
      ]);
      expect(await slotsOf(ws, 'r2')).toEqual([
        ['free', null],
        ['free', null],
      ]);
      expect(await store.reviewQueues.counts(ws, 'q', at(MINUTE))).toMatchObject({
        items: 3,
        items_done: 1,
        done: 3,
      });
      // Done at the verdict's time, not the enqueue's.
      const [done] = await store.reviewQueues.reviewedBy(ws, 'q', 'reviewer:b', 1);
      const given = (await store.feedback(ws, { participant: 'reviewer:b' }))[0]?.ts;
      expect(done?.done_at).toBe(given);
      expect(runOf(await claim(ws, 'reviewer:a', at(MINUTE)))).toBe('r2');
      expect(runOf(await claim(ws, 'reviewer:b', at(MINUTE)))).toBe('r0');
    });

    it('counts one verdict once when it is counted from several places at once', async () => {
      const { ws } = await queued(1, 3);
      await review(ws, 'a', 'r0');
      const counted = await Promise.all([
        settle(ws, 'reviewer:a', 'r0'),
        settle(ws, 'reviewer:a', 'r0'),
        claim(ws, 'reviewer:a'),
        store.reviewQueues.enqueue({
          workspace_id: ws,
          queue_id: 'q',
          feedback_type: 'review',
          slots: 3,
          targets: [turn('r0')],
          enqueued_by: 'system:test',
          now: at(0),
        }),
      ]);
      expect(counted[2]).toBeNull();
      expect(
        (await store.reviewQueues.item(ws, 'q', reviewItemId('q', 'turn:r0')))?.slots_done,
      ).toBe(1);
      expect(await slotsOf(ws, 'r0')).toEqual([
        ['done', 'reviewer:a'],
        ['free', null],
        ['free', null],
      ]);
    });

    it('queues every target a filter selects, on the server, once', async () => {
      const ws = freshWorkspace();
      await execute(ws, system, { type: 'create_thread', thread_id: 't' });
      for (let i = 0; i < 7; i++) {
        await execute(ws, system, { type: 'start_run', run_id: `r${i}`, thread_id: 't' });
        await execute(ws, system, {
          type: 'post_message',
          thread_id: 't',
          message_id: `m${i}`,
          role: i % 3 === 0 ? 'user' : 'assistant',
          content: 'x',
          run_id: `r${i}`,
        });
        if (i % 2 === 0) {
          await execute(ws, system, { type: 'end_run', run_id: `r${i}`, status: 'completed' });
        }
      }
      await execute(ws, system, { type: 'put_artifact', artifact_id: 'a', kind: 'report' });
      await execute(ws, system, { type: 'put_artifact', artifact_id: 'a', kind: 'report' });
      await execute(ws, system, { type: 'put_artifact', artifact_id: 'b', kind: 'plan' });
      const add = (
        queue_id: string,
        filter: Parameters<Store['reviewQueues']['enqueueMatching']>[0]['filter'],
        limit?: number,
      ) =>
        store.reviewQueues.enqueueMatching({
          workspace_id: ws,
          queue_id,
          feedback_type: 'review',
          slots: 1,
          filter,
          enqueued_by: 'system:test',
          now: at(0),
          ...(limit ? { limit } : {}),
        });
      expect(await add('runs', { kind: 'turn', statuses: ['completed'] })).toEqual({
        added: 4,
        already_queued: 0,
      });
      expect(await add('runs', { kind: 'turn' })).toEqual({ added: 3, already_queued: 4 });
      expect(await add('answers', { kind: 'message', roles: ['assistant'] })).toEqual({
        added: 4,
        already_queued: 0,
      });
      expect(await add('reports', { kind: 'artifact', latest_only: true })).toEqual({
        added: 2,
        already_queued: 0,
      });
      expect(await add('plans', { kind: 'artifact', artifact_kinds: ['plan'] })).toEqual({
        added: 1,
        already_queued: 0,
      });
      expect(await add('some', { kind: 'turn' }, 2)).toEqual({ added: 2, already_queued: 0 });
      const reports = await store.reviewQueues.item(
        ws,
        'reports',
        reviewItemId('reports', 'artifact:a@2'),
      );
      expect(reports?.target).toEqual({ kind: 'artifact', artifact_id: 'a', version: 2 });
    });

    it('sums each queue id’s waiting and leased slots over the workspaces, for the metrics', async () => {
      const { ws } = await queued(3, 2, 'figured');
      const { ws: other } = await queued(1, 1, 'figured');
      await store.reviewQueues.claim({
        workspace_id: ws,
        queue_id: 'figured',
        reviewer: 'reviewer:a',
        feedback_type: 'review',
        lease_ms: MINUTE,
        now: at(0),
      });
      const item = (
        await store.reviewQueues.claim({
          workspace_id: other,
          queue_id: 'figured',
          reviewer: 'reviewer:a',
          feedback_type: 'review',
          lease_ms: MINUTE,
          now: at(0),
        })
      )?.item.item_id as string;
      await store.reviewQueues.complete({
        workspace_id: other,
        queue_id: 'figured',
        item_id: item,
        reviewer: 'reviewer:a',
        now: at(0),
      });
      const figured = (await store.reviewQueues.figures(at(0))).find(
        (f) => f.queue_id === 'figured',
      );
      expect(figured).toEqual({ queue_id: 'figured', depth: 6, leased: 1 });
      expect(
        (await store.reviewQueues.figures(at(MINUTE))).find((f) => f.queue_id === 'figured'),
      ).toEqual({
        queue_id: 'figured',
        depth: 6,
        leased: 0,
      });
    });

    it('keeps the workspace’s queue definitions as a view of its log, and as they stood at a seq', async () => {
      const ws = freshWorkspace();
      const set = (extra: object) =>
        execute(ws, system, {
          type: 'set_review_queue',
          queue_id: 'q',
          feedback_type: 'review',
          target_kinds: ['turn'],
          ...extra,
        });
      const first = await set({ reviewers_per_item: 2 });
      await set({ reviewers_per_item: 3, archived: true });
      const [now] = await store.reviewQueues.definitions(ws);
      expect(now).toMatchObject({
        queue_id: 'q',
        reviewers_per_item: 3,
        archived: true,
        set_by: 'system:system',
      });
      const [then] = await store.reviewQueues.definitionsAt(ws, first.events[0]?.seq ?? 0);
      expect(then).toMatchObject({
        reviewers_per_item: 2,
        archived: false,
        blind: true,
        lease_seconds: 900,
      });
      expect((await store.views(ws)).reviewQueues.get('q')).toEqual(now);
    });
  });
}

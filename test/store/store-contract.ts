import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Envelope, replay } from '../../src/core/index.js';
import {
  type Commands,
  type EntityReads,
  type EvaluationRecords,
  type EventLog,
  envelopeIdFor,
  type Outcome,
  type RuleReads,
  staticScoreConfigs,
} from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = Commands & EventLog & EntityReads & RuleReads & Pick<EvaluationRecords, 'ledger'>;

// The contract of the command path, the log and the entity and rule reads, run unchanged against every adapter (sqlite.test.ts, postgres.test.ts).
// Each test works in its own workspace, so one store serves the whole suite.

const system = { kind: 'system', name: 'system' };
const agent = (thread_id: string) => ({ kind: 'agent', thread_id });
const user = (id: string) => ({ kind: 'user', id });
const evaluator = { kind: 'evaluator', name: 'tone', version: '2' };
const reviewer = { kind: 'reviewer', id: 'rv1' };

let counter = 0;
const freshWorkspace = () => `ws-${Date.now().toString(36)}-${++counter}`;

function recorded(outcome: Outcome) {
  if (outcome.type !== 'recorded')
    throw new Error(`expected recorded, got ${JSON.stringify(outcome)}`);
  return outcome;
}

export function storeContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} store`, () => {
    let store: Opened<Ports>;
    let clock = Date.parse('2026-01-01T00:00:00Z');
    beforeAll(async () => {
      store = await open({
        feedbackTypes: conformanceFeedbackTypes(),
        scoreConfigs: staticScoreConfigs({ review: { archived: false } }),
        evaluators: {
          targetsOf: (id) => (id.startsWith('tone@') ? ['message', 'turn'] : undefined),
          feedbackTypeOf: (id) => (id.startsWith('tone@') ? 'helpfulness' : undefined),
        },
        now: () => new Date(clock),
        pollMs: 50,
      });
    });
    afterAll(async () => {
      await store?.close();
    });

    const run = (workspace_id: string, actor: unknown, command: unknown, command_id?: string) =>
      store.executeUnchecked({
        workspace_id,
        actor,
        command,
        ...(command_id ? { command_id } : {}),
      });

    async function conversationWorkspace() {
      const ws = freshWorkspace();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't1', title: 'Help' }));
      recorded(
        await run(ws, agent('t1'), {
          type: 'start_run',
          run_id: 'r1',
          thread_id: 't1',
          trace_id: 'tr-a',
        }),
      );
      recorded(
        await run(ws, user('u1'), {
          type: 'post_message',
          thread_id: 't1',
          message_id: 'm0',
          role: 'user',
          content: 'hi',
        }),
      );
      recorded(
        await run(ws, agent('t1'), {
          type: 'post_message',
          thread_id: 't1',
          message_id: 'm1',
          role: 'assistant',
          content: 'hello',
          run_id: 'r1',
        }),
      );
      return ws;
    }

    it('appends with a gap-free seq that starts at 1 in every workspace', async () => {
      const a = freshWorkspace();
      const b = freshWorkspace();
      recorded(await run(a, system, { type: 'create_thread', thread_id: 't1' }));
      recorded(await run(b, system, { type: 'create_thread', thread_id: 't1' }));
      recorded(await run(a, system, { type: 'create_thread', thread_id: 't2' }));
      expect((await store.events({ workspace_id: a })).map((e) => e.seq)).toEqual([1, 2]);
      expect((await store.events({ workspace_id: b })).map((e) => e.seq)).toEqual([1]);
      expect(await store.head(a)).toBe(2);
      expect(await store.head(freshWorkspace())).toBe(0);
    });

    it('keeps seq gap-free when many commands race in one workspace', async () => {
      const ws = freshWorkspace();
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          run(ws, system, { type: 'create_thread', thread_id: `t${i % 30}` }),
        ),
      );
      const appended = outcomes.filter((o) => o.type === 'recorded').length;
      expect(appended).toBe(30);
      expect(outcomes.filter((o) => o.type === 'conflict')).toHaveLength(10);
      expect((await store.events({ workspace_id: ws })).map((e) => e.seq)).toEqual(
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
    });

    it('sees what another store of the database (another process) appended to a workspace', async () => {
      const ws = await conversationWorkspace();
      const other = await open({ feedbackTypes: conformanceFeedbackTypes() });
      const inRun = (message_id: string) => ({
        type: 'post_message',
        thread_id: 't1',
        message_id,
        role: 'assistant',
        content: 'more',
        run_id: 'r1',
      });
      try {
        const inT5 = { type: 'post_message', thread_id: 't5', role: 'user', content: 'hi' };
        // This store's state of the workspace is warm (t5 known absent); the other one moves the
        // workspace on.
        expect(await run(ws, user('u1'), inT5)).toMatchObject({ type: 'not_found' });
        recorded(await run(ws, agent('t1'), inRun('m2')));
        recorded(
          await other.executeUnchecked({
            workspace_id: ws,
            actor: system,
            command: { type: 'create_thread', thread_id: 't5' },
          }),
        );
        recorded(await run(ws, user('u1'), inT5));
        recorded(
          await other.executeUnchecked({
            workspace_id: ws,
            actor: agent('t1'),
            command: inRun('m3'),
          }),
        );
        recorded(
          await other.executeUnchecked({
            workspace_id: ws,
            actor: agent('t1'),
            command: { type: 'end_run', run_id: 'r1', status: 'completed' },
          }),
        );
        expect(await run(ws, agent('t1'), inRun('m4'))).toMatchObject({ type: 'invalid_state' });
        // A message id the other store used is taken here too.
        expect(
          await run(ws, user('u1'), {
            type: 'post_message',
            thread_id: 't1',
            message_id: 'm3',
            role: 'user',
            content: 'again',
          }),
        ).toMatchObject({ type: 'conflict' });
        const next = recorded(
          await run(ws, system, { type: 'create_thread', thread_id: 't2', title: null }),
        );
        const seqs = (await store.events({ workspace_id: ws })).map((e) => e.seq);
        expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
        expect(next.events[0]?.seq).toBe(seqs.length);
        // And back: the other store's warm state is behind now, and it sees this store's thread.
        expect(
          await other.executeUnchecked({
            workspace_id: ws,
            actor: system,
            command: { type: 'create_thread', thread_id: 't2' },
          }),
        ).toMatchObject({ type: 'conflict' });
      } finally {
        await other.close();
      }
    });

    it("answers a command id another store recorded with that store's outcome", async () => {
      const ws = await conversationWorkspace();
      const other = await open({ feedbackTypes: conformanceFeedbackTypes() });
      const command = {
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'turn', run_id: 'r1' },
        value: { rating: 4 },
      };
      try {
        recorded(await run(ws, evaluator, { ...command, value: { rating: 5 } }));
        const first = recorded(
          await other.executeUnchecked({
            workspace_id: ws,
            actor: evaluator,
            command,
            command_id: 'c-1',
          }),
        );
        const head = await store.head(ws);
        expect(await run(ws, evaluator, command, 'c-1')).toEqual(first);
        expect(await store.head(ws)).toBe(head);
        recorded(await run(ws, evaluator, { ...command, value: { rating: 3 } }));
        expect(await store.head(ws)).toBe(head + 1);
      } finally {
        await other.close();
      }
    });

    it('returns envelopes with id, ts, scope and actor, as the log keeps them', async () => {
      const ws = await conversationWorkspace();
      const outcome = recorded(
        await run(ws, evaluator, {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'turn', run_id: 'r1' },
          value: { rating: 4 },
        }),
      );
      const [envelope] = outcome.events;
      expect(envelope).toMatchObject({
        seq: 5,
        workspace_id: ws,
        thread_id: 't1',
        run_id: 'r1',
        actor: evaluator,
        event: { type: 'feedback_given', source: 'JUDGE', value: { rating: 4, reason: null } },
      });
      expect(envelope?.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(await store.events({ workspace_id: ws, after: 4 })).toEqual(outcome.events);
    });

    it('refuses a rejected or unparseable command without changing anything', async () => {
      const ws = await conversationWorkspace();
      const before = await store.views(ws);
      expect(
        await run(ws, system, { type: 'start_run', run_id: 'r1', thread_id: 't1' }),
      ).toMatchObject({
        type: 'invalid_state',
      });
      expect(await run(ws, system, { type: 'nonsense' })).toMatchObject({
        type: 'validation_failed',
      });
      expect(
        await run(ws, 'not an actor', { type: 'create_thread', thread_id: 'x' }),
      ).toMatchObject({
        type: 'validation_failed',
        message: 'invalid actor: Invalid input: expected object, received string',
      });
      expect(
        await store.executeUnchecked({ workspace_id: '', actor: system, command: {} }),
      ).toMatchObject({
        type: 'validation_failed',
      });
      expect(await store.head(ws)).toBe(4);
      expect(await store.views(ws)).toEqual(before);
    });

    it('replays a command id: the first outcome comes back and nothing is appended', async () => {
      const ws = await conversationWorkspace();
      const command = {
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'turn', run_id: 'r1' },
        value: { rating: 2 },
      };
      const first = recorded(await run(ws, evaluator, command, 'verdict-1'));
      clock += 60_000;
      const again = await run(ws, evaluator, command, 'verdict-1');
      expect(again).toEqual(first);
      expect(await store.head(ws)).toBe(5);
      expect(first.events[0]?.id).toBe(envelopeIdFor(ws, 'verdict-1', 0));
      const inCommand = await run(ws, evaluator, { ...command, command_id: 'verdict-1' });
      expect(inCommand).toEqual(first);
    });

    it('refuses a command id reused for a different command', async () => {
      const ws = await conversationWorkspace();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }, 'c-1'));
      expect(
        await run(ws, system, { type: 'create_thread', thread_id: 't3' }, 'c-1'),
      ).toMatchObject({
        type: 'conflict',
        message: 'command c-1 was already used for a different command',
      });
      expect(
        await run(ws, user('u9'), { type: 'create_thread', thread_id: 't2' }, 'c-1'),
      ).toMatchObject({
        type: 'conflict',
      });
      expect(await store.head(ws)).toBe(5);
    });

    it('assigns a message id when none is given, and a replay keeps it', async () => {
      const ws = await conversationWorkspace();
      const command = { type: 'post_message', thread_id: 't1', role: 'user', content: 'again' };
      const first = recorded(await run(ws, user('u1'), command, 'msg-1'));
      const event = first.events[0]?.event;
      expect(event).toMatchObject({ type: 'message_posted', content: 'again' });
      const message_id = event?.type === 'message_posted' ? event.message_id : '';
      expect(message_id).not.toBe('');
      expect(await run(ws, user('u1'), command, 'msg-1')).toEqual(first);
      expect(await store.message(ws, 't1', message_id)).toMatchObject({
        message_id,
        author: 'user:u1',
      });
    });

    it('never lets ts go backwards, even when the clock does', async () => {
      const ws = freshWorkspace();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't1' }));
      clock -= 3_600_000;
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      const [first, second] = await store.events({ workspace_id: ws });
      expect(second?.ts).toBe(first?.ts);
      clock += 7_200_000;
    });

    it('keeps reported times in the views and lists, refusing one too far ahead unchanged', async () => {
      const ws = freshWorkspace();
      const start = new Date(clock - 86_400_000).toISOString();
      const end = new Date(clock - 86_000_000).toISOString();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't1' }));
      const startRun = { type: 'start_run', run_id: 'r1', thread_id: 't1', started_at: start };
      const started = recorded(await run(ws, system, startRun, 'start-r1'));
      expect(started.events[0]?.ts).toBe(new Date(clock).toISOString());
      recorded(
        await run(ws, system, {
          type: 'post_message',
          thread_id: 't1',
          message_id: 'm1',
          role: 'user',
          content: 'hi',
          run_id: 'r1',
          posted_at: start,
        }),
      );
      const ahead = new Date(clock + 6 * 60_000).toISOString();
      const before = await store.views(ws);
      expect(
        await run(ws, system, {
          type: 'end_run',
          run_id: 'r1',
          status: 'completed',
          ended_at: ahead,
        }),
      ).toMatchObject({ type: 'validation_failed', message: expect.stringContaining('ahead') });
      expect(
        await run(ws, system, {
          type: 'end_run',
          run_id: 'r1',
          status: 'completed',
          ended_at: '2020-01-01T00:00:00Z',
        }),
      ).toMatchObject({ type: 'validation_failed', message: expect.stringContaining('precedes') });
      expect(await store.views(ws)).toEqual(before);
      expect(await store.head(ws)).toBe(3);
      recorded(
        await run(ws, system, {
          type: 'end_run',
          run_id: 'r1',
          status: 'completed',
          ended_at: end,
        }),
      );
      // The time is a clock's reading, not the command's identity: a retry reading another is
      // the same command, and the first time stays.
      const again = await run(ws, system, { ...startRun, started_at: end }, 'start-r1');
      expect(again).toEqual(started);

      expect(await store.run(ws, 'r1')).toMatchObject({ started_at: start, updated_at: end });
      expect(await store.message(ws, 't1', 'm1')).toMatchObject({ posted_at: start });
      // Listed by its reported times, both before the store's clock.
      const storeNow = new Date(clock).toISOString();
      const listed = await store.runs(ws, {
        started_before: end,
        ended_before: storeNow,
        limit: 10,
      });
      expect(listed.map((r) => r.run_id)).toEqual(['r1']);
      expect(replay(await store.events({ workspace_id: ws })).runs).toEqual(
        (await store.views(ws)).runs,
      );
    });

    it("reads a thread's events, its feedback included, and pages by seq", async () => {
      const ws = await conversationWorkspace();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      recorded(
        await run(ws, system, { type: 'put_artifact', artifact_id: 'a1', kind: 'report', data: 1 }),
      );
      recorded(
        await run(ws, user('u1'), {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'message', message_id: 'm1', thread_id: 't1', run_id: 'r1' },
          value: { rating: 5 },
        }),
      );
      const t1 = await store.events({ workspace_id: ws, thread_id: 't1' });
      expect(t1.map((e) => e.event.type)).toEqual([
        'thread_created',
        'run_started',
        'message_posted',
        'message_posted',
        'feedback_given',
      ]);
      expect(
        (await store.events({ workspace_id: ws, after: 2, limit: 2 })).map((e) => e.seq),
      ).toEqual([3, 4]);
    });

    it('subscribes: replays from a seq, then follows new events in order', async () => {
      const ws = await conversationWorkspace();
      const seen: Envelope[] = [];
      const subscription = store.subscribe({ workspace_id: ws, after: 2 }, (e) => {
        seen.push(e);
      });
      await waitFor(() => seen.length === 2);
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      recorded(await run(ws, agent('t1'), { type: 'pause_run', run_id: 'r1' }));
      await waitFor(() => seen.length === 4);
      await subscription.close();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't3' }));
      await new Promise((resolve) => setTimeout(resolve, 120));
      expect(seen.map((e) => e.seq)).toEqual([3, 4, 5, 6]);
      await subscription.done;
    });

    it('subscribes by pages: each call a run of consecutive events, at most the limit', async () => {
      const ws = await conversationWorkspace();
      const pages: number[][] = [];
      const subscription = store.subscribePages(
        { workspace_id: ws, after: 1, limit: 2 },
        (page) => {
          pages.push(page.map((e) => e.seq));
        },
      );
      await waitFor(() => pages.flat().length === 3);
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      await waitFor(() => pages.flat().length === 4);
      await subscription.close();
      expect(pages.flat()).toEqual([2, 3, 4, 5]);
      expect(pages[0]).toEqual([2, 3]);
      expect(pages.every((page) => page.length >= 1 && page.length <= 2)).toBe(true);
    });

    it('has one id, a UUID made with its schema, that every store of the database shares', async () => {
      expect(store.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      const other = await open({ feedbackTypes: conformanceFeedbackTypes() });
      try {
        expect(other.id).toBe(store.id);
      } finally {
        await other.close();
      }
    });

    it("gives a thread's subscribers its feedback and nothing of other threads", async () => {
      const ws = await conversationWorkspace();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      const seen: Envelope[] = [];
      const subscription = store.subscribe({ workspace_id: ws, thread_id: 't1', after: 4 }, (e) => {
        seen.push(e);
      });
      recorded(
        await run(ws, evaluator, {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'turn', run_id: 'r1' },
          value: { rating: 3 },
        }),
      );
      recorded(
        await run(ws, user('u1'), {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'thread', thread_id: 't2' },
          value: { rating: 3 },
        }),
      );
      recorded(
        await run(ws, user('u1'), {
          type: 'rate_message',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
          value: { rating: 1 },
        }),
      );
      await waitFor(() => seen.length === 2);
      await subscription.close();
      expect(seen.map((e) => [e.thread_id, e.event.type])).toEqual([
        ['t1', 'feedback_given'],
        ['t1', 'feedback_given'],
      ]);
    });

    it('stops its subscriptions when it closes', async () => {
      const own = await open({ feedbackTypes: conformanceFeedbackTypes(), pollMs: 50 });
      const ws = freshWorkspace();
      const subscription = own.subscribe({ workspace_id: ws }, () => {});
      await own.close();
      await expect(subscription.done).resolves.toBeUndefined();
    });

    it("ends a subscription with its listener's error", async () => {
      const ws = await conversationWorkspace();
      const subscription = store.subscribe({ workspace_id: ws }, () => {
        throw new Error('listener broke');
      });
      await expect(subscription.done).rejects.toThrow('listener broke');
      await subscription.close();
    });

    it('keeps every trace of a resumed run, oldest first', async () => {
      const ws = await conversationWorkspace();
      recorded(await run(ws, agent('t1'), { type: 'pause_run', run_id: 'r1', reason: 'approval' }));
      expect(await store.run(ws, 'r1')).toMatchObject({
        status: 'paused',
        pause_reason: 'approval',
      });
      recorded(
        await run(ws, agent('t1'), {
          type: 'start_run',
          run_id: 'r1',
          thread_id: 't1',
          trace_id: 'tr-b',
        }),
      );
      recorded(await run(ws, agent('t1'), { type: 'end_run', run_id: 'r1', status: 'completed' }));
      expect(await store.run(ws, 'r1')).toMatchObject({
        run_id: 'r1',
        thread_id: 't1',
        status: 'completed',
        trace_ids: ['tr-a', 'tr-b'],
        pause_reason: null,
      });
      expect(await store.run(ws, 'r9')).toBeNull();
      expect(await store.thread(ws, 't1')).toMatchObject({ thread_id: 't1', title: 'Help' });
      expect(await store.thread(ws, 't9')).toBeNull();
    });

    it('serves an artifact at any version, each with its own trace', async () => {
      const ws = await conversationWorkspace();
      recorded(
        await run(ws, agent('t1'), {
          type: 'put_artifact',
          artifact_id: 'a1',
          kind: 'report',
          data: { v: 1 },
          trace_id: 'tr-1',
        }),
      );
      recorded(
        await run(ws, agent('t1'), {
          type: 'put_artifact',
          artifact_id: 'a1',
          kind: 'report',
          data: { v: 2 },
          trace_id: 'tr-2',
        }),
      );
      recorded(await run(ws, system, { type: 'archive_artifact', artifact_id: 'a1' }));
      expect(await store.artifact(ws, 'a1', 1)).toMatchObject({
        version: 1,
        data: { v: 1 },
        trace_id: 'tr-1',
        author: 'agent:t1',
        thread_id: 't1',
        current_version: 2,
        archived: true,
      });
      expect(await store.artifact(ws, 'a1')).toMatchObject({
        version: 2,
        data: { v: 2 },
        trace_id: 'tr-2',
      });
      expect(await store.artifact(ws, 'a1', 3)).toBeNull();
      expect(await store.artifact(ws, 'a9')).toBeNull();
    });

    it("lets only an artifact's own thread's agent or the system add its versions", async () => {
      const ws = await conversationWorkspace();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      recorded(
        await run(ws, agent('t1'), { type: 'put_artifact', artifact_id: 'a1', kind: 'report' }),
      );
      expect(
        await run(ws, agent('t2'), { type: 'put_artifact', artifact_id: 'a1', kind: 'report' }),
      ).toEqual({
        type: 'forbidden',
        message: "only thread t1's agent or the system may record its artifacts",
      });
      recorded(await run(ws, system, { type: 'put_artifact', artifact_id: 'a1', kind: 'report' }));
      expect(await store.artifact(ws, 'a1')).toMatchObject({
        version: 2,
        author: 'system:system',
        thread_id: null,
      });
    });

    it('replaces a rating in place under its first identity, and deletes only the rater’s', async () => {
      const ws = await conversationWorkspace();
      const rate = (rater: string, rating: number) =>
        run(ws, user(rater), {
          type: 'rate_message',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
          value: { rating },
        });
      const first = recorded(await rate('u1', 5));
      recorded(await rate('u2', 4));
      clock += 1000;
      const replaced = recorded(await rate('u1', 2));
      const firstEnvelope = first.events[0];
      expect(replaced.is_update).toBe(true);
      expect(replaced.events[0]?.event).toMatchObject({
        replaces: { id: firstEnvelope?.id, ts: firstEnvelope?.ts },
      });
      const ratings = await store.feedback(ws, {
        target: { kind: 'message', message_id: 'm1', thread_id: 't1', run_id: null },
      });
      expect(ratings.map((r) => [r.id, r.participant, r.value.rating])).toEqual([
        [firstEnvelope?.id, 'user:u1', 2],
        [expect.any(String), 'user:u2', 4],
      ]);
      expect(ratings[0]?.ts).toBe(firstEnvelope?.ts);

      const deleted = recorded(
        await run(ws, user('u1'), {
          type: 'delete_rating',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
        }),
      );
      expect(deleted).toMatchObject({
        removed: true,
        rated_message: { feedback: [{ rater: 'user:u2' }] },
      });
      expect(deleted.events[0]?.event).toMatchObject({
        type: 'rating_deleted',
        rating: { id: firstEnvelope?.id },
      });
      const again = recorded(
        await run(ws, user('u1'), {
          type: 'delete_rating',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
        }),
      );
      expect(again).toMatchObject({ removed: false, events: [] });
      expect((await store.feedback(ws, { source: 'USER' })).map((r) => r.participant)).toEqual([
        'user:u2',
      ]);
    });

    it('replaces a reviewer’s feedback in place under its first identity, and withdraws only theirs', async () => {
      const ws = await conversationWorkspace();
      const onTurn = { kind: 'turn' as const, run_id: 'r1' };
      const review = (id: string, approved: boolean) =>
        run(
          ws,
          { kind: 'reviewer', id },
          {
            type: 'give_feedback',
            feedback_type: 'review',
            target: onTurn,
            value: { approved },
          },
        );
      const first = recorded(await review('rv1', false));
      recorded(await review('rv2', true));
      clock += 1000;
      const revised = recorded(await review('rv1', true));
      const firstEnvelope = first.events[0];
      expect(first.is_update).toBe(false);
      expect(revised.is_update).toBe(true);
      expect(revised.events[0]?.event).toMatchObject({
        replaces: { id: firstEnvelope?.id, ts: firstEnvelope?.ts },
      });
      const reviews = await store.feedback(ws, { target: onTurn, feedback_type: 'review' });
      expect(reviews.map((r) => [r.id, r.participant, r.value.approved, r.rating])).toEqual([
        [firstEnvelope?.id, 'reviewer:rv1', true, false],
        [expect.any(String), 'reviewer:rv2', true, false],
      ]);
      expect(reviews[0]?.ts).toBe(firstEnvelope?.ts);

      const withdraw = () =>
        run(ws, reviewer, { type: 'withdraw_feedback', feedback_type: 'review', target: onTurn });
      const withdrawn = recorded(await withdraw());
      expect(withdrawn.removed).toBe(true);
      expect(withdrawn.events[0]).toMatchObject({
        thread_id: 't1',
        run_id: 'r1',
        event: {
          type: 'feedback_withdrawn',
          identity: { id: firstEnvelope?.id, ts: firstEnvelope?.ts },
        },
      });
      expect(await withdraw()).toMatchObject({ removed: false, events: [] });
      expect((await store.feedback(ws, { target: onTurn })).map((r) => r.participant)).toEqual([
        'reviewer:rv2',
      ]);
      expect(await store.views(ws)).toEqual(replay(await store.events({ workspace_id: ws })));
    });

    it('names the run that produced an artifact version', async () => {
      const ws = await conversationWorkspace();
      const put = recorded(
        await run(ws, agent('t1'), {
          type: 'put_artifact',
          artifact_id: 'a1',
          kind: 'report',
          run_id: 'r1',
        }),
      );
      expect(put.events[0]).toMatchObject({
        thread_id: null,
        run_id: null,
        event: { type: 'artifact_put', run_id: 'r1', thread_id: 't1' },
      });
      expect(await store.artifact(ws, 'a1')).toMatchObject({ version: 1, run_id: 'r1' });
    });

    it('serves a conversation: messages in order, assistant messages with feedback by source', async () => {
      const ws = await conversationWorkspace();
      const onM1 = { kind: 'message', message_id: 'm1', thread_id: 't1', run_id: 'r1' };
      recorded(
        await run(ws, user('u1'), {
          type: 'rate_message',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
          value: { rating: 4 },
        }),
      );
      recorded(
        await run(ws, evaluator, {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: onM1,
          value: { rating: 3 },
        }),
      );
      recorded(
        await run(ws, reviewer, {
          type: 'give_feedback',
          feedback_type: 'review',
          target: onM1,
          value: { approved: true },
        }),
      );
      recorded(
        await run(ws, evaluator, {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'turn', run_id: 'r1' },
          value: { rating: 1 },
        }),
      );
      const conversation = await store.conversation(ws, 't1');
      expect(conversation?.map((m) => [m.message_id, m.role])).toEqual([
        ['m0', 'user'],
        ['m1', 'assistant'],
      ]);
      expect(conversation?.[0]?.feedback).toBeUndefined();
      const feedback = conversation?.[1]?.feedback ?? {};
      expect(Object.keys(feedback).sort()).toEqual(['HUMAN', 'JUDGE', 'USER']);
      expect(feedback.USER?.map((r) => r.value.rating)).toEqual([4]);
      expect(feedback.JUDGE?.map((r) => r.participant)).toEqual(['evaluator:tone@2']);
      expect(feedback.HUMAN?.map((r) => r.value)).toEqual([{ approved: true, note: null }]);
      expect(await store.conversation(ws, 't9')).toBeNull();
    });

    it("reads a run with its thread's conversation in one call, null without the run", async () => {
      const ws = await conversationWorkspace();
      const turn = await store.turn(ws, 'r1');
      expect(turn?.run).toEqual(await store.run(ws, 'r1'));
      expect(turn?.conversation).toEqual(await store.conversation(ws, 't1'));
      expect(turn?.conversation.map((m) => m.message_id)).toEqual(['m0', 'm1']);
      expect(await store.turn(ws, 'r9')).toBeNull();
      expect(await store.turn(ws, '')).toBeNull();
    });

    it("reads with a run the ledger's entries on its turn in the generation asked for", async () => {
      const ws = await conversationWorkspace();
      const settle = (generation: string, participant: string, run_id: string) =>
        store.ledger.settleEvaluation({
          workspace_id: ws,
          generation,
          participant,
          target_key: `turn:${run_id}`,
          target: { kind: 'turn', run_id },
          state: 'sampled_out',
          reason: 'rate',
          envelope_id: null,
        });
      await settle('run', 'evaluator:b@1', 'r1');
      await settle('run', 'evaluator:a@1', 'r1');
      await settle('batch-2', 'evaluator:c@1', 'r1');
      await settle('run', 'evaluator:d@1', 'r2');
      const turn = await store.turn(ws, 'r1', 'run');
      expect(turn?.settled.map((e) => [e.participant, e.state])).toEqual([
        ['evaluator:a@1', 'sampled_out'],
        ['evaluator:b@1', 'sampled_out'],
      ]);
      expect(turn?.conversation).toEqual(await store.conversation(ws, 't1'));
      expect((await store.turn(ws, 'r1'))?.settled).toEqual([]);
    });

    it('finds feedback by target, source and participant', async () => {
      const ws = await conversationWorkspace();
      const turn = { kind: 'turn', run_id: 'r1' } as const;
      recorded(
        await run(ws, evaluator, {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: turn,
          value: { rating: 3 },
        }),
      );
      recorded(
        await run(ws, user('u1'), {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: turn,
          value: { rating: 5 },
        }),
      );
      recorded(
        await run(ws, user('u1'), {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target: { kind: 'thread', thread_id: 't1' },
          value: { rating: 2 },
        }),
      );
      expect((await store.feedback(ws, { target: turn })).map((r) => r.value.rating)).toEqual([
        3, 5,
      ]);
      expect((await store.feedback(ws, { source: 'JUDGE' })).map((r) => r.participant)).toEqual([
        'evaluator:tone@2',
      ]);
      expect(
        (await store.feedback(ws, { participant: 'user:u1' })).map((r) => r.target_key),
      ).toEqual(['turn:r1', 'thread:t1']);
      expect(await store.feedback(ws, { participant: 'user:u1', target: turn })).toHaveLength(1);
      expect(await store.feedback(ws)).toHaveLength(3);
    });

    it('finds feedback by target kind and by when it was last given, a replacement counting', async () => {
      const ws = await conversationWorkspace();
      const at = (minute: number) => {
        clock = Date.parse(`2026-03-01T10:${String(minute).padStart(2, '0')}:00Z`);
      };
      const give = async (actor: unknown, target: object, approved: boolean) =>
        recorded(
          await run(ws, actor, {
            type: 'give_feedback',
            feedback_type: 'review',
            target,
            value: { approved },
          }),
        );
      const turn = { kind: 'turn', run_id: 'r1' };
      const message = { kind: 'message', thread_id: 't1', message_id: 'm1', run_id: 'r1' };
      at(1);
      await give(reviewer, turn, true);
      at(2);
      await give(reviewer, message, false);
      at(3);
      await give({ kind: 'reviewer', id: 'rv2' }, turn, false);
      at(4);
      // rv1 revises the turn: it was last given now, under its first identity.
      await give(reviewer, turn, false);
      const found = async (filter: object) =>
        (await store.feedback(ws, { feedback_type: 'review', source: 'HUMAN', ...filter })).map(
          (record) => `${record.participant} ${record.target_key} ${record.value.approved}`,
        );
      expect(await found({ target_kind: 'turn' })).toEqual([
        'reviewer:rv1 turn:r1 false',
        'reviewer:rv2 turn:r1 false',
      ]);
      expect(await found({ target_kind: 'message' })).toEqual(['reviewer:rv1 message:t1/m1 false']);
      expect(
        await found({
          updated_from: '2026-03-01T10:02:00Z',
          updated_before: '2026-03-01T10:04:00.000Z',
        }),
      ).toEqual(['reviewer:rv1 message:t1/m1 false', 'reviewer:rv2 turn:r1 false']);
      // The same instant in another zone is the same window.
      expect(await found({ updated_from: '2026-03-01T11:04:00+01:00' })).toEqual([
        'reviewer:rv1 turn:r1 false',
      ]);
      expect(await found({ updated_before: '2026-03-01T10:01:00Z' })).toEqual([]);
    });

    it("marks a shadow version's verdicts, and refuses shadow feedback from anyone else", async () => {
      const ws = await conversationWorkspace();
      const turn = { kind: 'turn', run_id: 'r1' } as const;
      const verdict = {
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: turn,
        value: { rating: 4 },
        shadow: true,
      };
      const given = recorded(await run(ws, evaluator, verdict));
      expect(given.events[0]?.event).toMatchObject({ type: 'feedback_given', shadow: true });
      recorded(await run(ws, evaluator, { ...verdict, shadow: false }));
      expect((await store.feedback(ws, { target: turn })).map((r) => r.shadow)).toEqual([
        true,
        undefined,
      ]);
      const head = await store.head(ws);
      expect(await run(ws, user('u1'), verdict)).toEqual({
        type: 'forbidden',
        message: 'only an evaluator gives shadow verdicts',
      });
      expect(await store.head(ws)).toBe(head);
    });

    it('switches two rules in one promotion that keeps its evidence, refusing short evidence', async () => {
      const ws = freshWorkspace();
      recorded(
        await run(ws, system, {
          type: 'set_evaluation_rule',
          evaluator: 'tone@2',
          targets: ['message'],
          mode: 'shadow',
        }),
      );
      const evidence = {
        compared: 'tone@2:rating',
        against: 'reviewers:helpfulness.rating',
        matched: 60,
        kappa: 0.71,
        interval: { low: 0.6, high: 0.8, level: 0.95 },
        raw_agreement: 0.85,
        as_of_seq: 1,
      };
      const promote = {
        type: 'promote_evaluator',
        evaluator: 'tone@2',
        replacing: 'tone@1',
        rule: { targets: ['turn', 'message'], sample_rate: 0.5 },
        replaced_rule: { targets: ['turn', 'message'], sample_rate: 0.5 },
        min_kappa: 0.75,
        min_matched: 50,
        evidence,
      };
      expect(await run(ws, system, promote)).toEqual({
        type: 'invalid_state',
        message:
          'tone@2 was not promoted: the evidence is short (κ 0.710 is below 0.75): κ 0.710 ' +
          '(95 % interval 0.600–0.800) over 60 matched targets against ' +
          'reviewers:helpfulness.rating, as of seq 1',
      });
      expect(await store.head(ws)).toBe(1);
      const promoted = recorded(await run(ws, system, { ...promote, min_kappa: 0.7 }));
      expect(promoted.events[0]?.event).toEqual({
        type: 'evaluator_promoted',
        evaluator: 'tone@2',
        replacing: 'tone@1',
        rules: [
          {
            evaluator: 'tone@2',
            targets: ['message', 'turn'],
            sample_rate: 0.5,
            filter: {},
            enabled: true,
          },
          {
            evaluator: 'tone@1',
            targets: ['message', 'turn'],
            sample_rate: 0.5,
            filter: {},
            enabled: false,
          },
        ],
        min_kappa: 0.7,
        min_matched: 50,
        evidence: { ...evidence, mapping: {}, replaced: null },
        shortfalls: [],
        forced: false,
      });
      const rules = await store.rules(ws);
      expect(rules.map((r) => [r.evaluator, r.enabled, r.mode, r.seq, r.set_by])).toEqual([
        ['tone@1', false, undefined, 2, 'system:system'],
        ['tone@2', true, undefined, 2, 'system:system'],
      ]);
      expect(await store.rulesAt(ws, 2)).toEqual(rules);
      expect((await store.rulesAt(ws, 1)).map((r) => [r.evaluator, r.mode])).toEqual([
        ['tone@2', 'shadow'],
      ]);
      const forced = recorded(
        await run(ws, system, { ...promote, evidence: { ...evidence, matched: 3 }, force: true }),
      );
      expect(forced.events[0]?.event).toMatchObject({
        shortfalls: ['3 matched targets, fewer than 50', 'κ 0.710 is below 0.75'],
        forced: true,
      });
    });

    it("keeps a workspace's rules as of any seq, each with who set it", async () => {
      const ws = freshWorkspace();
      const set = (command: object) =>
        run(ws, system, { type: 'set_evaluation_rule', evaluator: 'tone@2', ...command });
      const first = recorded(await set({ targets: ['message'], sample_rate: 0.25 }));
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't' }));
      const second = recorded(await set({ targets: ['turn', 'message'], enabled: false }));
      expect(first.events[0]?.event).toEqual({
        type: 'evaluation_rule_set',
        evaluator: 'tone@2',
        targets: ['message'],
        sample_rate: 0.25,
        filter: {},
        enabled: true,
      });
      const now = await store.rules(ws);
      expect(now).toEqual([
        {
          evaluator: 'tone@2',
          targets: ['message', 'turn'],
          sample_rate: 1,
          filter: {},
          enabled: false,
          set_by: 'system:system',
          set_at: second.events[0]?.ts,
          seq: 3,
        },
      ]);
      expect(await store.rulesAt(ws, 3)).toEqual(now);
      expect((await store.rulesAt(ws, 2)).map((r) => [r.seq, r.sample_rate, r.enabled])).toEqual([
        [1, 0.25, true],
      ]);
      expect(await store.rulesAt(ws, 0)).toEqual([]);
      expect(await store.rules(freshWorkspace())).toEqual([]);
    });

    it('refuses a rule from anyone but the system, or for an undeployed evaluator or kind', async () => {
      const ws = freshWorkspace();
      const rule = { type: 'set_evaluation_rule', evaluator: 'tone@2', targets: ['message'] };
      expect(await run(ws, user('u'), rule)).toMatchObject({ type: 'forbidden' });
      expect(await run(ws, system, { ...rule, evaluator: 'other@1' })).toMatchObject({
        type: 'not_found',
        entity: 'evaluator',
        id: 'other@1',
      });
      expect(await run(ws, system, { ...rule, targets: ['artifact'] })).toMatchObject({
        type: 'validation_failed',
        message: 'tone@2 judges message, turn, not artifact',
      });
      expect(await run(ws, system, { ...rule, evaluator: 'tone' })).toMatchObject({
        type: 'validation_failed',
      });
      expect(await run(ws, system, { ...rule, sample_rate: 1.5 })).toMatchObject({
        type: 'validation_failed',
      });
      expect(await store.head(ws)).toBe(0);
    });

    it('lists threads by id and runs newest first, a page at a time, with their filters', async () => {
      const ws = freshWorkspace();
      const at = (minute: number) => {
        clock = Date.parse('2026-03-01T00:00:00Z') + minute * 60_000;
      };
      // r3's trace id holds LIKE's wildcards: the trace filter matches it as written, and no other.
      for (const [minute, thread_id, run_id, trace_id] of [
        [0, 't-b', 'r1', null],
        [1, 't-a', 'r2', 'ab'.repeat(16)],
        [2, 't-b', 'r3', 'a_b%c\\"d'],
        [3, 't-c', 'r4', null],
      ] as const) {
        at(minute);
        if ((await store.thread(ws, thread_id)) === null) {
          recorded(await run(ws, system, { type: 'create_thread', thread_id }));
        }
        recorded(
          await run(ws, agent(thread_id), { type: 'start_run', run_id, thread_id, trace_id }),
        );
      }
      at(10);
      recorded(await run(ws, agent('t-b'), { type: 'end_run', run_id: 'r1', status: 'completed' }));
      at(20);
      recorded(await run(ws, agent('t-b'), { type: 'end_run', run_id: 'r3', status: 'failed' }));
      recorded(await run(ws, agent('t-c'), { type: 'pause_run', run_id: 'r4' }));

      const ids = (runs: { run_id: string }[]) => runs.map((r) => r.run_id);
      expect((await store.threads(ws, { limit: 10 })).map((t) => t.thread_id)).toEqual([
        't-a',
        't-b',
        't-c',
      ]);
      expect((await store.threads(ws, { after: 't-a', limit: 1 })).map((t) => t.thread_id)).toEqual(
        ['t-b'],
      );
      expect(ids(await store.runs(ws, { limit: 10 }))).toEqual(['r4', 'r3', 'r2', 'r1']);
      const first = await store.runs(ws, { limit: 2 });
      const last = first.at(-1);
      if (last === undefined) throw new Error('no page');
      expect(ids(await store.runs(ws, { limit: 2, after: last }))).toEqual(['r2', 'r1']);
      expect(ids(await store.runs(ws, { limit: 10, thread_id: 't-b' }))).toEqual(['r3', 'r1']);
      expect(ids(await store.runs(ws, { limit: 10, status: 'paused' }))).toEqual(['r4']);
      expect(ids(await store.runs(ws, { limit: 10, trace_id: 'ab'.repeat(16) }))).toEqual(['r2']);
      expect(ids(await store.runs(ws, { limit: 10, trace_id: 'a_b%c\\"d' }))).toEqual(['r3']);
      // Wildcards in the filter match nothing else; an id found in another field is no trace id.
      expect(ids(await store.runs(ws, { limit: 10, trace_id: 'a%' }))).toEqual([]);
      expect(ids(await store.runs(ws, { limit: 10, trace_id: 't-c' }))).toEqual([]);
      expect(
        ids(
          await store.runs(ws, {
            limit: 10,
            started_from: '2026-03-01T00:01:00.000Z',
            started_before: '2026-03-01T00:03:00.000Z',
          }),
        ),
      ).toEqual(['r3', 'r2']);
      expect(
        ids(
          await store.runs(ws, {
            limit: 10,
            ended_from: '2026-03-01T00:15:00.000Z',
          }),
        ),
      ).toEqual(['r3']);
      expect(await store.runs('no-such-workspace', { limit: 10 })).toEqual([]);
    });

    it('moves a named cursor only forward', async () => {
      const ws = freshWorkspace();
      expect(await store.cursor(ws, 'relay')).toBe(0);
      expect(await store.saveCursor(ws, 'relay', 7)).toBe(7);
      expect(await store.saveCursor(ws, 'relay', 3)).toBe(7);
      expect(await store.saveCursor(ws, 'mirror', 2)).toBe(2);
      expect(await store.cursor(ws, 'relay')).toBe(7);
      await expect(store.saveCursor(ws, 'relay', -1)).rejects.toThrow(RangeError);
    });

    it('counts the events after a named cursor over every workspace, and the oldest one', async () => {
      // A cursor no workspace has moved yet: every event of the store trails it.
      const cursor = `backlog-${freshWorkspace()}`;
      const first = await conversationWorkspace();
      clock += 60_000;
      const second = await conversationWorkspace();
      const heads = await Promise.all(
        (await store.workspaces()).map(async (ws) => ({ ws, head: await store.head(ws) })),
      );
      const firsts = await Promise.all(
        heads.map(async ({ ws }) => (await store.events({ workspace_id: ws, limit: 1 }))[0]?.ts),
      );
      const oldest = Math.min(...firsts.map((ts) => Date.parse(ts ?? '')));
      const total = heads.reduce((sum, { head }) => sum + head, 0);
      expect(await store.backlog(cursor)).toEqual({
        events: total,
        workspaces: heads.length,
        oldest_ts: new Date(oldest).toISOString(),
      });
      // Moving the cursor of one workspace takes its events off; the oldest is then the next.
      const behind = await store.head(second);
      await store.saveCursor(second, cursor, behind - 2);
      await store.saveCursor(first, cursor, 1);
      const [secondOfFirst] = await store.events({ workspace_id: first, after: 1, limit: 1 });
      const after = await store.backlog(cursor);
      expect(after.events).toBe(total - (behind - 2) - 1);
      expect(after.workspaces).toBe(heads.length);
      const others = firsts.filter((_, i) => heads[i]?.ws !== first && heads[i]?.ws !== second);
      const expectedOldest = Math.min(
        ...[...others, secondOfFirst?.ts].map((ts) => Date.parse(ts ?? '')),
      );
      expect(after.oldest_ts).toBe(new Date(expectedOldest).toISOString());
      // A workspace the cursor caught up with no longer counts.
      await store.saveCursor(second, cursor, behind);
      expect((await store.backlog(cursor)).workspaces).toBe(heads.length - 1);
    });

    it('tells its watchers of each append, by workspace, until they stop', async () => {
      const ws = freshWorkspace();
      const told: string[] = [];
      const stop = store.watchAppends((workspace) => told.push(workspace));
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't1' }));
      // A refusal appends nothing, so no one is told.
      expect(await run(ws, system, { type: 'create_thread', thread_id: 't1' })).toMatchObject({
        type: 'conflict',
      });
      // Told at once, by this store; on Postgres its own word comes back too, a moment later.
      expect(told).toContain(ws);
      stop();
      const before = told.length;
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(told.length).toBe(before);
      expect(new Set(told)).toEqual(new Set([ws]));
    });

    it('keeps every view equal to a replay of the log', async () => {
      const ws = await conversationWorkspace();
      recorded(
        await run(ws, user('u1'), {
          type: 'rate_message',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
          value: { rating: 4 },
        }),
      );
      recorded(
        await run(ws, user('u1'), {
          type: 'rate_message',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
          value: { rating: 2 },
        }),
      );
      recorded(
        await run(ws, user('u2'), {
          type: 'rate_message',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
          value: { rating: 3 },
        }),
      );
      recorded(
        await run(ws, user('u2'), {
          type: 'delete_rating',
          thread_id: 't1',
          message_id: 'm1',
          feedback_type: 'helpfulness',
        }),
      );
      recorded(
        await run(ws, agent('t1'), {
          type: 'put_artifact',
          artifact_id: 'a/1',
          kind: 'report',
          data: [1],
        }),
      );
      recorded(
        await run(ws, evaluator, {
          type: 'give_feedback',
          feedback_type: 'accuracy',
          target: { kind: 'artifact', artifact_id: 'a/1', version: 1 },
          value: { correct: true },
        }),
      );
      recorded(await run(ws, agent('t1'), { type: 'end_run', run_id: 'r1', status: 'failed' }));
      expect(await store.views(ws)).toEqual(replay(await store.events({ workspace_id: ws })));
    });

    it('ends a thread, and reopens it at its next run or message, as a replay of the log does', async () => {
      const ws = await conversationWorkspace();
      clock += 1000;
      const ended = recorded(await run(ws, agent('t1'), { type: 'end_thread', thread_id: 't1' }));
      expect(ended.events[0]).toMatchObject({ thread_id: 't1', run_id: null });
      expect(await store.thread(ws, 't1')).toMatchObject({ ended_at: ended.events[0]?.ts });
      expect(await run(ws, system, { type: 'end_thread', thread_id: 't1' })).toMatchObject({
        type: 'invalid_state',
      });
      recorded(
        await run(ws, user('u1'), {
          type: 'post_message',
          thread_id: 't1',
          message_id: 'm9',
          role: 'user',
          content: 'one more thing',
        }),
      );
      expect(await store.thread(ws, 't1')).toMatchObject({ ended_at: null });
      recorded(await run(ws, system, { type: 'end_thread', thread_id: 't1' }));
      recorded(await run(ws, agent('t1'), { type: 'start_run', run_id: 'r2', thread_id: 't1' }));
      expect((await store.thread(ws, 't1'))?.ended_at).toBeNull();
      expect(await store.views(ws)).toEqual(replay(await store.events({ workspace_id: ws })));
    });

    it("lists a thread's runs in the order they started, and none of another thread's", async () => {
      const ws = await conversationWorkspace();
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      for (const [run_id, thread_id] of [
        ['r3', 't1'],
        ['r0', 't2'],
        ['r2', 't1'],
      ]) {
        clock += 1000;
        recorded(await run(ws, system, { type: 'start_run', run_id, thread_id }));
      }
      recorded(await run(ws, system, { type: 'end_run', run_id: 'r3', status: 'completed' }));
      const runs = await store.threadRuns(ws, 't1');
      expect(runs.map((r) => [r.run_id, r.status])).toEqual([
        ['r1', 'running'],
        ['r3', 'completed'],
        ['r2', 'running'],
      ]);
      expect(await store.threadRuns(ws, 't9')).toEqual([]);
      expect(await store.threadRuns(ws, 't\u0000')).toEqual([]);
    });

    it("reads a thread's conversation a page at a time, in log order, up to a seq", async () => {
      const ws = await conversationWorkspace();
      // m0 (seq 3) and m1 (seq 4) are the thread's; then an artifact of its run, another
      // thread's message and an artifact no thread owns, and two more of the thread's.
      const put = (artifact_id: string, actor: unknown, run_id: string | null) =>
        run(ws, actor, {
          type: 'put_artifact',
          artifact_id,
          kind: 'report',
          data: { artifact_id },
          run_id,
        });
      recorded(await put('a1', agent('t1'), 'r1'));
      recorded(await run(ws, system, { type: 'create_thread', thread_id: 't2' }));
      recorded(
        await run(ws, user('u1'), {
          type: 'post_message',
          thread_id: 't2',
          message_id: 'x',
          role: 'user',
          content: 'elsewhere',
        }),
      );
      recorded(await put('b1', system, null));
      recorded(await put('a1', agent('t1'), 'r1'));
      recorded(
        await run(ws, agent('t1'), {
          type: 'post_message',
          thread_id: 't1',
          message_id: 'm2',
          role: 'assistant',
          content: 'done',
          run_id: 'r1',
        }),
      );
      const page = (after: number, through: number, limit: number) =>
        store.threadPage(ws, 't1', { after, through, limit });
      const entry = (e: Awaited<ReturnType<typeof page>>[number]) =>
        e.kind === 'message'
          ? [e.seq, 'message', e.message.message_id]
          : [
              e.seq,
              'artifact',
              `${e.artifact.artifact_id}@${e.artifact.version}`,
              e.artifact.run_id,
            ];
      expect((await page(0, 100, 100)).map(entry)).toEqual([
        [3, 'message', 'm0'],
        [4, 'message', 'm1'],
        [5, 'artifact', 'a1@1', 'r1'],
        [9, 'artifact', 'a1@2', 'r1'],
        [10, 'message', 'm2'],
      ]);
      expect((await page(0, 100, 2)).map(entry)).toEqual([
        [3, 'message', 'm0'],
        [4, 'message', 'm1'],
      ]);
      expect((await page(4, 100, 2)).map(entry)).toEqual([
        [5, 'artifact', 'a1@1', 'r1'],
        [9, 'artifact', 'a1@2', 'r1'],
      ]);
      expect((await page(4, 9, 100)).map(entry)).toEqual([
        [5, 'artifact', 'a1@1', 'r1'],
        [9, 'artifact', 'a1@2', 'r1'],
      ]);
      expect(await page(10, 100, 100)).toEqual([]);
      expect(await store.threadPage(ws, 't9', { after: 0, through: 100, limit: 10 })).toEqual([]);
      // The artifact entry is the version as the views keep it, seq included.
      const [first] = await page(4, 5, 1);
      expect(first?.kind === 'artifact' && first.artifact).toMatchObject({
        artifact_id: 'a1',
        version: 1,
        thread_id: 't1',
        seq: 5,
        data: { artifact_id: 'a1' },
      });
      expect(await store.views(ws)).toEqual(replay(await store.events({ workspace_id: ws })));
    });
  });
}

async function waitFor(condition: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

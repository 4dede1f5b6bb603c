import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Commands,
  EvaluationRecords,
  EventLog,
  ExecuteInput,
  TargetIndexes,
} from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = Commands &
  Pick<EventLog, 'workspaces'> &
  Pick<EvaluationRecords, 'ledger' | 'usage'> &
  TargetIndexes;

// The ledger and the artifact version pages, run unchanged against every adapter.

let counter = 0;
const freshWorkspace = () => `ledger-${Date.now().toString(36)}-${++counter}`;
const key = { generation: 'run', participant: 'evaluator:tone@1', target_key: 'turn:r1' };

export function ledgerContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} ledger`, () => {
    let store: Opened<Ports>;
    let clock = Date.parse('2026-03-01T00:00:00Z');
    beforeAll(async () => {
      store = await open({ feedbackTypes: conformanceFeedbackTypes(), now: () => new Date(clock) });
    });
    afterAll(async () => {
      await store?.close();
    });

    it('keeps the first state an evaluation settles in', async () => {
      const ws = freshWorkspace();
      const entry = {
        workspace_id: ws,
        ...key,
        target: { kind: 'turn', run_id: 'r1' },
        envelope_id: 'e1',
      };
      expect(await store.ledger.evaluation(ws, key)).toBeNull();
      await store.ledger.settleEvaluation({ ...entry, state: 'recorded', reason: null });
      const again = await store.ledger.settleEvaluation({
        ...entry,
        state: 'failed',
        reason: 'late',
      });
      expect(again).toMatchObject({ state: 'recorded', reason: null, envelope_id: 'e1' });
      expect(again.target).toEqual({ kind: 'turn', run_id: 'r1' });
      await store.ledger.settleEvaluation({
        ...entry,
        generation: 'batch-2',
        state: 'sampled_out',
        reason: 'rate',
      });
      expect((await store.ledger.evaluations(ws)).map((e) => [e.generation, e.state])).toEqual([
        ['batch-2', 'sampled_out'],
        ['run', 'recorded'],
      ]);
      expect(await store.ledger.evaluations(ws, { state: 'sampled_out' })).toHaveLength(1);
    });

    it("settles a verdict's evaluation in its append's transaction, and on its replay", async () => {
      const ws = freshWorkspace();
      const system = { kind: 'system', name: 'system' };
      for (const command of [
        { type: 'create_thread', thread_id: 't1' },
        { type: 'start_run', run_id: 'r1', thread_id: 't1', trace_id: 'trace' },
      ]) {
        await store.executeUnchecked({ workspace_id: ws, actor: system, command });
      }
      const target = { kind: 'turn', run_id: 'r1' } as const;
      const verdict = (name: string, rating: number, command_id: string): ExecuteInput => ({
        workspace_id: ws,
        actor: { kind: 'evaluator', name, version: '1' },
        command: {
          type: 'give_feedback',
          feedback_type: 'helpfulness',
          target,
          value: { rating, reason: 'ok' },
        },
        command_id,
      });
      const settles = (name: string, attempt = 1) => ({
        ...key,
        participant: `evaluator:${name}@1`,
        target,
        attempt: { attempt, duration_ms: 12.4 },
      });
      const attemptsOf = async (name: string) => {
        const usage = await store.usage.ofEvaluation({
          workspace_id: ws,
          ...key,
          participant: `evaluator:${name}@1`,
        });
        return [usage.attempts, usage.duration_ms];
      };
      const entryOf = (name: string) =>
        store.ledger.evaluation(ws, { ...key, participant: `evaluator:${name}@1` });

      // Twice, so both the locked path (a workspace's first append here) and the warm one write it.
      for (const name of ['tone', 'clarity']) {
        const given = await store.execute(verdict(name, 4, `c-${name}`), {
          settles: settles(name),
        });
        expect(given.type).toBe('recorded');
        const envelope_id = given.type === 'recorded' ? given.events[0]?.id : undefined;
        expect(await entryOf(name)).toMatchObject({
          state: 'recorded',
          reason: null,
          envelope_id,
          target,
        });
        // The attempt that judged it is recorded with it.
        expect(await attemptsOf(name)).toEqual([1, 12]);
      }

      // A verdict appended without its settlement (an older worker died before settling it) is
      // settled when the activity's retry replays the command.
      const first = await store.execute(verdict('depth', 5, 'c-depth'));
      expect(await entryOf('depth')).toBeNull();
      const replay = await store.execute(verdict('depth', 5, 'c-depth'), {
        settles: settles('depth', 2),
      });
      expect(replay).toEqual(first);
      expect(await entryOf('depth')).toMatchObject({
        state: 'recorded',
        envelope_id: first.type === 'recorded' ? first.events[0]?.id : 'none',
      });
      expect(await attemptsOf('depth')).toEqual([1, 12]);

      // A refused verdict settles nothing; a settled evaluation keeps its first state.
      const refused = await store.execute(verdict('brevity', 9, 'c-brevity'), {
        settles: settles('brevity'),
      });
      expect(refused.type).toBe('validation_failed');
      expect(await entryOf('brevity')).toBeNull();
      expect(await attemptsOf('brevity')).toEqual([0, 0]);
      await store.ledger.settleEvaluation({
        workspace_id: ws,
        ...settles('late'),
        state: 'failed',
        reason: 'timed out',
        envelope_id: null,
      });
      expect(
        (await store.execute(verdict('late', 3, 'c-late'), { settles: settles('late') })).type,
      ).toBe('recorded');
      expect(await entryOf('late')).toMatchObject({ state: 'failed', reason: 'timed out' });
    });

    it("lists one target's entries, every generation of it, by its target key", async () => {
      const ws = freshWorkspace();
      const thread = { kind: 'thread', thread_id: 't/1' };
      for (const [generation, target_key, target] of [
        ['thread:12', 'thread:t%2F1', thread],
        ['thread:4', 'thread:t%2F1', thread],
        ['thread:4', 'thread:t2', { kind: 'thread', thread_id: 't2' }],
        ['run', 'turn:r1', { kind: 'turn', run_id: 'r1' }],
      ] as const) {
        await store.ledger.settleEvaluation({
          workspace_id: ws,
          generation,
          participant: 'evaluator:tone@1',
          target_key,
          target,
          state: 'recorded',
          reason: null,
          envelope_id: null,
        });
      }
      const entries = await store.ledger.evaluations(ws, { target_key: 'thread:t%2F1' });
      expect(entries.map((e) => e.generation)).toEqual(['thread:12', 'thread:4']);
      expect(entries[0]?.target).toEqual(thread);
    });

    it('expects scores, lets a later event replace them, and settles each once', async () => {
      const ws = freshWorkspace();
      const score = (value: number) => ({ id: 's1', name: 'q.rating', value });
      await store.ledger.expectScores(ws, [{ seq: 5, score: score(1) }]);
      await store.ledger.settleScores(ws, [{ score_id: 's1', state: 'confirmed', reason: null }]);
      // A replay of the same event changes nothing; a later event makes the score pending again.
      await store.ledger.expectScores(ws, [{ seq: 5, score: score(9) }]);
      expect(await store.ledger.scores(ws, { ids: ['s1'] })).toMatchObject([
        { state: 'confirmed', seq: 5, score: score(1) },
      ]);
      await store.ledger.expectScores(ws, [{ seq: 7, score: score(2) }]);
      expect(await store.ledger.scores(ws, { state: 'pending' })).toMatchObject([
        { score_id: 's1', seq: 7, score: score(2) },
      ]);
      await store.ledger.settleScores(ws, [{ score_id: 's1', state: 'failed', reason: 'gone' }]);
      expect(await store.ledger.scores(ws, { ids: ['s1', 'missing'] })).toMatchObject([
        { state: 'failed', reason: 'gone' },
      ]);
    });

    it('tracks a deletion as pending until settled, and records a failure before anything is sent', async () => {
      const ws = freshWorkspace();
      await store.ledger.expectScores(ws, [{ seq: 5, score: { id: 's1' } }]);
      await store.ledger.expectDeletes(ws, [
        { seq: 8, score_id: 's1' },
        { seq: 8, score_id: 'never-written' },
      ]);
      expect(await store.ledger.scores(ws, { state: 'pending' })).toMatchObject([
        { score_id: 'never-written', seq: 8, deletion: true },
        { score_id: 's1', seq: 8, deletion: true, score: { id: 's1' } },
      ]);
      // An earlier event's write or failure does not undo the deletion; a replay changes nothing.
      await store.ledger.expectScores(ws, [{ seq: 5, score: { id: 's1' } }]);
      await store.ledger.recordFailures(ws, [{ seq: 8, score_id: 's1', reason: 'replayed' }]);
      expect(await store.ledger.scores(ws, { ids: ['s1'] })).toMatchObject([
        { state: 'pending', deletion: true, reason: null },
      ]);
      await store.ledger.settleScores(ws, [{ score_id: 's1', state: 'deleted', reason: 'gone' }]);
      expect(await store.ledger.scores(ws, { state: 'deleted' })).toMatchObject([
        { score_id: 's1', deletion: true, reason: 'gone' },
      ]);

      await store.ledger.recordFailures(ws, [{ seq: 9, score_id: 's2', reason: 'undeclared' }]);
      await store.ledger.recordFailures(ws, [{ seq: 12, score_id: 's2', reason: 'withdrawn' }]);
      expect(await store.ledger.scores(ws, { ids: ['s2'] })).toMatchObject([
        { state: 'failed', seq: 12, reason: 'withdrawn', deletion: false, score: { id: 's2' } },
      ]);
    });

    it('keeps each undelivered event once, with its reason, in seq order', async () => {
      const ws = freshWorkspace();
      const entry = (seq: number, reason: string) => ({
        workspace_id: ws,
        seq,
        event_type: 'message_posted',
        run_id: 'r1',
        workflow_id: `run:s:${ws}:r1`,
        reason,
      });
      expect(await store.ledger.undelivered(ws)).toEqual([]);
      const first = new Date(clock).toISOString();
      await store.ledger.recordUndelivered([entry(7, 'closed (terminated)'), entry(5, 'closed')]);
      clock += 1000;
      const second = new Date(clock).toISOString();
      await store.ledger.recordUndelivered([entry(7, 'again'), entry(9, 'closed (completed)')]);
      await store.ledger.recordUndelivered([]);
      const entries = await store.ledger.undelivered(ws);
      expect(entries.map((e) => [e.seq, e.reason])).toEqual([
        [5, 'closed'],
        [7, 'closed (terminated)'],
        [9, 'closed (completed)'],
      ]);
      expect(entries[0]).toEqual({ ...entry(5, 'closed'), recorded_at: first });
      expect(entries[2]?.recorded_at).toBe(second);
      expect(await store.ledger.undelivered(freshWorkspace())).toEqual([]);
    });

    it('pages artifact versions by key, kind, creation time and latest version', async () => {
      const ws = freshWorkspace();
      const put = async (artifact_id: string, kind: string) => {
        clock += 60_000;
        const outcome = await store.executeUnchecked({
          workspace_id: ws,
          actor: { kind: 'system' },
          command: { type: 'put_artifact', artifact_id, kind, data: {} },
        });
        expect(outcome.type).toBe('recorded');
      };
      const start = new Date(clock).toISOString();
      for (const id of ['b', 'a', 'c']) await put(id, id === 'c' ? 'memo' : 'report');
      const middle = new Date(clock).toISOString();
      await put('a', 'report');
      await put('b', 'report');

      const all = async (selector: object, limit = 2) => {
        const keys = [];
        for (let after = null; ; ) {
          const page = await store.artifactVersions.list(ws, selector, after, limit);
          keys.push(...page.map((k) => `${k.artifact_id}@${k.version}`));
          if (page.length < limit) return keys;
          after = page.at(-1) ?? null;
        }
      };
      expect(await all({})).toEqual(['a@1', 'a@2', 'b@1', 'b@2', 'c@1']);
      expect(await store.artifactVersions.count(ws, {})).toBe(5);
      expect(await all({ kind: 'report' })).toEqual(['a@1', 'a@2', 'b@1', 'b@2']);
      expect(await all({ artifactIds: ['c', 'a'] })).toEqual(['a@1', 'a@2', 'c@1']);
      expect(await all({ latestOnly: true })).toEqual(['a@2', 'b@2', 'c@1']);
      expect(await all({ createdFrom: start, createdTo: middle })).toEqual(['a@1', 'b@1']);
      expect(await store.artifactVersions.count(ws, { artifactIds: [] })).toBe(0);
      expect(await store.workspaces()).toContain(ws);
    });
  });
}

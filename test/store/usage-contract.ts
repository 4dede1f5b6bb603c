import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationRecords, UsageRecord } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = Pick<EvaluationRecords, 'usage'>;

// The usage ledger, run unchanged against every adapter.

let counter = 0;
const freshWorkspace = () => `usage-${Date.now().toString(36)}-${++counter}`;

export function usageContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} usage ledger`, () => {
    let store: Opened<Ports>;
    let clock = Date.parse('2026-03-01T10:00:00Z');
    beforeAll(async () => {
      store = await open({ feedbackTypes: conformanceFeedbackTypes(), now: () => new Date(clock) });
    });
    afterAll(async () => {
      await store?.close();
    });
    const keyOf = (workspace_id: string, participant: string, target_key: string) => ({
      workspace_id,
      generation: 'run',
      participant,
      target_key,
    });
    const usage = (
      key: ReturnType<typeof keyOf>,
      attempt: number,
      report: number,
      cost_nanos: number | null,
    ): UsageRecord => ({
      ...key,
      attempt,
      report,
      model: 'grader',
      input_tokens: 100,
      output_tokens: 10,
      cost_nanos,
    });

    it('keeps each attempt and report once, however often it is recorded', async () => {
      const key = keyOf(freshWorkspace(), 'evaluator:judge@1', 'turn:r1');
      await store.usage.recordAttempt({ ...key, attempt: 1, duration_ms: 40.4, failed: true });
      await store.usage.recordAttempt({ ...key, attempt: 1, duration_ms: 99, failed: false });
      await store.usage.recordUsage(usage(key, 1, 0, 1_500));
      await store.usage.recordUsage(usage(key, 1, 0, 1_500));
      await store.usage.recordAttempt({ ...key, attempt: 2, duration_ms: 60, failed: false });
      await store.usage.recordUsage(usage(key, 2, 0, 1_500));
      await store.usage.recordUsage(usage(key, 2, 1, null));
      expect(await store.usage.ofEvaluation(key)).toEqual({
        attempts: 2,
        duration_ms: 100,
        input_tokens: 300,
        output_tokens: 30,
        cost_nanos: 3_000,
        unpriced_reports: 1,
      });
      expect(await store.usage.ofEvaluation({ ...key, target_key: 'turn:other' })).toEqual({
        attempts: 0,
        duration_ms: 0,
        input_tokens: 0,
        output_tokens: 0,
        cost_nanos: 0,
        unpriced_reports: 0,
      });
    });

    it('reads many evaluations’ usage at once, in the order asked, as one read each gives', async () => {
      const workspace = freshWorkspace();
      const judged = keyOf(workspace, 'evaluator:judge@1', 'turn:b1');
      const other = keyOf(workspace, 'evaluator:judge@2', 'turn:b1');
      const elsewhere = keyOf(freshWorkspace(), 'evaluator:judge@1', 'turn:b1');
      await store.usage.recordAttempt({ ...judged, attempt: 1, duration_ms: 30, failed: true });
      await store.usage.recordAttempt({ ...judged, attempt: 2, duration_ms: 20, failed: false });
      await store.usage.recordUsage(usage(judged, 1, 0, 900));
      await store.usage.recordUsage(usage(judged, 2, 0, null));
      await store.usage.recordAttempt({ ...other, attempt: 1, duration_ms: 5, failed: false });
      await store.usage.recordUsage(usage(elsewhere, 1, 0, 1));
      // Beyond one batch of keys, with the judged ones last.
      const unjudged = Array.from({ length: 620 }, (_, i) => ({
        generation: 'run',
        participant: 'evaluator:judge@1',
        target_key: `turn:none-${i}`,
      }));
      const strip = ({ workspace_id: _, ...key }: ReturnType<typeof keyOf>) => key;
      const keys = [...unjudged, strip(other), strip(judged)];
      const read = await store.usage.ofEvaluations(workspace, keys);
      expect(read).toHaveLength(keys.length);
      expect(read.slice(-2)).toEqual([
        await store.usage.ofEvaluation(other),
        await store.usage.ofEvaluation(judged),
      ]);
      expect(read.at(-1)).toEqual({
        attempts: 2,
        duration_ms: 50,
        input_tokens: 200,
        output_tokens: 20,
        cost_nanos: 900,
        unpriced_reports: 1,
      });
      expect(read.at(-2)).toMatchObject({ attempts: 1, input_tokens: 0, cost_nanos: 0 });
      expect(new Set(read.slice(0, -2).map((u) => JSON.stringify(u)))).toEqual(
        new Set([JSON.stringify(await store.usage.ofEvaluation(keyOf(workspace, 'x', 'y')))]),
      );
      expect(await store.usage.ofEvaluations(workspace, [])).toEqual([]);
    });

    it('sums spend by version, workspace and UTC day, filtered, to the nano-dollar', async () => {
      const [a, b] = [freshWorkspace(), freshWorkspace()];
      clock = Date.parse('2026-03-02T23:59:00Z');
      await store.usage.recordUsage(usage(keyOf(a, 'evaluator:judge@1', 'turn:1'), 1, 0, 333));
      await store.usage.recordUsage(usage(keyOf(a, 'evaluator:judge@2', 'turn:1'), 1, 0, 7));
      clock = Date.parse('2026-03-03T00:01:00Z');
      await store.usage.recordUsage(usage(keyOf(a, 'evaluator:judge@1', 'turn:2'), 1, 0, 334));
      await store.usage.recordUsage(usage(keyOf(b, 'evaluator:judge@1', 'turn:1'), 1, 0, 1));
      await store.usage.recordUsage(usage(keyOf(b, 'evaluator:judge2@1', 'turn:1'), 1, 0, 5));

      const byDay = await store.usage.spend({ workspace_id: a }, ['participant', 'day']);
      expect(
        byDay.map((row) => [row.participant, row.day, row.cost_nanos, row.evaluations]),
      ).toEqual([
        ['evaluator:judge@1', '2026-03-02', 333, 1],
        ['evaluator:judge@1', '2026-03-03', 334, 1],
        ['evaluator:judge@2', '2026-03-02', 7, 1],
      ]);
      expect(byDay[0]).toMatchObject({ workspace_id: null, model: null, input_tokens: 100 });

      const judge = await store.usage.spend(
        { evaluator_name: 'judge', from_day: '2026-03-03', to_day: '2026-03-03' },
        ['workspace'],
      );
      const mine = judge.filter((row) => row.workspace_id === a || row.workspace_id === b);
      expect(mine.map((row) => [row.workspace_id, row.cost_nanos])).toEqual([
        [a, 334],
        [b, 1],
      ]);
      const total = await store.usage.spend({ workspace_id: b }, []);
      expect(total).toEqual([
        expect.objectContaining({ participant: null, evaluations: 2, cost_nanos: 6, reports: 2 }),
      ]);
      expect(await store.usage.spend({ workspace_id: freshWorkspace() }, ['day'])).toEqual([]);
    });

    it("measures a version's mean cost per judged evaluation, unknown with unpriced usage", async () => {
      const ws = freshWorkspace();
      const participant = `evaluator:mean${counter}@1`;
      expect(await store.usage.measuredCost(participant, ws)).toEqual({
        evaluations: 0,
        mean_cost_nanos: null,
      });
      for (const [target, cost] of [
        ['turn:1', 100],
        ['turn:2', 300],
      ] as const) {
        const key = keyOf(ws, participant, target);
        await store.usage.recordAttempt({ ...key, attempt: 1, duration_ms: 5, failed: false });
        await store.usage.recordUsage(usage(key, 1, 0, cost));
      }
      // A judged evaluation that used nothing counts, at no cost.
      const free = keyOf(ws, participant, 'turn:3');
      await store.usage.recordAttempt({ ...free, attempt: 1, duration_ms: 5, failed: false });
      expect(await store.usage.measuredCost(participant, ws)).toEqual({
        evaluations: 3,
        mean_cost_nanos: 133,
      });
      expect((await store.usage.measuredCost(participant)).evaluations).toBe(3);
      await store.usage.recordUsage(usage(free, 1, 0, null));
      expect((await store.usage.measuredCost(participant, ws)).mean_cost_nanos).toBeNull();
    });

    it("measures a version's mean attempt duration, failed attempts included", async () => {
      const ws = freshWorkspace();
      const participant = `evaluator:slow${counter}@1`;
      expect(await store.usage.measuredDuration(participant, ws)).toEqual({
        attempts: 0,
        mean_attempt_ms: null,
      });
      const key = keyOf(ws, participant, 'turn:1');
      await store.usage.recordAttempt({ ...key, attempt: 1, duration_ms: 100, failed: true });
      await store.usage.recordAttempt({ ...key, attempt: 2, duration_ms: 200, failed: false });
      await store.usage.recordAttempt({
        ...keyOf(ws, participant, 'turn:2'),
        attempt: 1,
        duration_ms: 600,
        failed: false,
      });
      expect(await store.usage.measuredDuration(participant, ws)).toEqual({
        attempts: 3,
        mean_attempt_ms: 300,
      });
      expect((await store.usage.measuredDuration(participant, freshWorkspace())).attempts).toBe(0);
    });

    it('reads what a version used on chosen targets, in one workspace', async () => {
      const ws = freshWorkspace();
      const participant = `evaluator:tokens${counter}@1`;
      const first = keyOf(ws, participant, 'message:t/m1');
      // On m1: two calls in one evaluation (a retried attempt spends too), one in a batch's.
      await store.usage.recordUsage(usage(first, 1, 0, 100));
      await store.usage.recordUsage(usage(first, 2, 0, 100));
      await store.usage.recordUsage(usage({ ...first, generation: 'batch' }, 1, 0, 50));
      // On m2, one unpriced call; m3 judged only by another version and in another workspace.
      await store.usage.recordUsage(usage(keyOf(ws, participant, 'message:t/m2'), 1, 0, null));
      await store.usage.recordUsage(usage(keyOf(ws, 'evaluator:other@1', 'message:t/m3'), 1, 0, 1));
      await store.usage.recordUsage(
        usage(keyOf(freshWorkspace(), participant, 'message:t/m3'), 1, 0, 1),
      );
      const keys = ['message:t/m1', 'message:t/m2', 'message:t/m3'];
      expect(await store.usage.usageOn(participant, ws, keys)).toEqual([
        {
          target_key: 'message:t/m1',
          evaluations: 2,
          reports: 3,
          input_tokens: 300,
          cost_nanos: 250,
        },
        {
          target_key: 'message:t/m2',
          evaluations: 1,
          reports: 1,
          input_tokens: 100,
          cost_nanos: null,
        },
      ]);
      expect(await store.usage.usageOn(participant, ws, [])).toEqual([]);
    });

    it("sums one generation's spend: a batch's", async () => {
      const ws = freshWorkspace();
      const batch = { ...keyOf(ws, 'evaluator:judge@1', 'turn:1'), generation: 'batch-1' };
      await store.usage.recordUsage(usage(batch, 1, 0, 700));
      await store.usage.recordUsage(usage({ ...batch, target_key: 'turn:2' }, 1, 0, 300));
      await store.usage.recordUsage(usage({ ...batch, generation: 'run' }, 1, 0, 5_000));
      const [row] = await store.usage.spend({ workspace_id: ws, generation: 'batch-1' }, []);
      expect(row).toMatchObject({ evaluations: 2, cost_nanos: 1_000 });
      expect(await store.usage.spend({ workspace_id: ws, generation: 'none' }, [])).toEqual([]);
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationRecords } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import type { Opened, OpenPorts } from './open-ports.js';

/** The store ports this suite holds the backends to (the type checker keeps it to them). */
type Ports = Pick<EvaluationRecords, 'budgets' | 'usage'>;

// Budgets in the store, run unchanged against every adapter: the audit of a workspace's own
// budgets, and reservations that hold a cap however many writers reserve at once.

let counter = 0;
const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++counter}`;

export function budgetsContract(adapter: string, open: OpenPorts<Ports>) {
  describe(`the ${adapter} budget store`, () => {
    let store: Opened<Ports>;
    let other: Opened<Ports>;
    beforeAll(async () => {
      store = await open({ feedbackTypes: conformanceFeedbackTypes() });
      other = await open({ feedbackTypes: conformanceFeedbackTypes() });
    });
    afterAll(async () => {
      await store?.close();
      await other?.close();
    });
    const keyOf = (workspace_id: string, target: string, attempt = 1) => ({
      workspace_id,
      generation: 'run',
      participant: 'evaluator:judge@1',
      target_key: `turn:${target}`,
      attempt,
    });

    it('keeps every change of a budget with who made it, and removes one', async () => {
      const ws = fresh('w');
      const settings = {
        evaluator: 'judge',
        period: 'day',
        limitUsd: 5,
        onExhausted: 'skip',
      } as const;
      await store.budgets.set(ws, 'daily', settings, 'admin:alice');
      await store.budgets.set(ws, 'daily', { ...settings, limitUsd: 8 }, 'admin:bob');
      expect(await store.budgets.list(ws)).toEqual([
        expect.objectContaining({
          budget_id: 'daily',
          settings: { ...settings, limitUsd: 8 },
          changed_by: 'admin:bob',
        }),
      ]);
      await store.budgets.set(ws, 'daily', null, 'admin:alice');
      expect(await store.budgets.list(ws)).toEqual([]);
      expect(
        (await store.budgets.changes(ws, 'daily')).map((c) => [
          c.change,
          c.settings?.limitUsd ?? null,
          c.changed_by,
        ]),
      ).toEqual([
        [1, 5, 'admin:alice'],
        [2, 8, 'admin:bob'],
        [3, null, 'admin:alice'],
      ]);
    });

    it("lists every workspace's own budgets without a workspace, each with its workspace", async () => {
      const [a, b] = [fresh('a'), fresh('b')];
      const settings = {
        evaluator: 'judge',
        period: 'week',
        limitUsd: 2,
        onExhausted: 'defer',
      } as const;
      await store.budgets.set(b, 'weekly', settings, 'admin:bob');
      await store.budgets.set(a, 'weekly', { ...settings, limitUsd: 3 }, 'admin:alice');
      await store.budgets.set(a, 'capped', settings, 'admin:alice');
      const mine = (await other.budgets.list()).filter((s) => [a, b].includes(s.workspace_id));
      expect(mine.map((s) => [s.workspace_id, s.budget_id, s.budget])).toEqual([
        [a, 'capped', { ...settings, budgetId: 'capped', workspace: a }],
        [a, 'weekly', { ...settings, limitUsd: 3, budgetId: 'weekly', workspace: a }],
        [b, 'weekly', { ...settings, budgetId: 'weekly', workspace: b }],
      ]);
    });

    it('admits reservations while spent + reserved + the estimate fits the limit, across two stores at once', async () => {
      const ws = fresh('w');
      const ref = { scope: ws, budget_id: 'cap', period_key: '2026-03-01', limit_nanos: 1_000 };
      // 20 attempts of 100 each against a limit of 1,000, from two connections at once.
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 === 0 ? store : other).budgets.reserve(keyOf(ws, `t${i}`), ref, 100),
        ),
      );
      expect(outcomes.filter((o) => o.admitted)).toHaveLength(10);
      expect(await store.budgets.spend(ref)).toEqual({ spent_nanos: 0, reserved_nanos: 1_000 });
      // An attempt that reserved already is admitted again, reserving nothing more.
      const admittedIndex = outcomes.findIndex((o) => o.admitted);
      expect(await store.budgets.reserve(keyOf(ws, `t${admittedIndex}`), ref, 100)).toMatchObject({
        admitted: true,
        reserved_nanos: 1_000,
      });
    });

    it('settles an attempt once: its estimate leaves the reserve, its cost joins the spend, and warns once past 80 %', async () => {
      const ws = fresh('w');
      const ref = { scope: ws, budget_id: 'cap', period_key: '2026-03-01', limit_nanos: 1_000 };
      const limitOf = () => 1_000;
      await store.budgets.reserve(keyOf(ws, 'a'), ref, 100);
      await store.budgets.reserve(keyOf(ws, 'b'), ref, 100);
      const first = await store.budgets.settle(keyOf(ws, 'a'), 790, limitOf);
      expect(first).toEqual([
        expect.objectContaining({ spent_nanos: 790, reserved_nanos: 100, warn: false }),
      ]);
      expect(await store.budgets.settle(keyOf(ws, 'a'), 790, limitOf)).toEqual([]);
      const second = await store.budgets.settle(keyOf(ws, 'b'), 10, limitOf);
      expect(second).toEqual([
        expect.objectContaining({ spent_nanos: 800, reserved_nanos: 0, warn: true }),
      ]);
      await store.budgets.reserve(keyOf(ws, 'c'), ref, 100);
      expect((await store.budgets.settle(keyOf(ws, 'c'), 150, limitOf))[0]).toMatchObject({
        spent_nanos: 950,
        warn: false,
      });
      // 50 left: an estimate of 100 does not fit, one of 50 does, and spent + reserved at the
      // limit admits nothing more, not even an unknown (0) estimate.
      expect(await store.budgets.reserve(keyOf(ws, 'd'), ref, 100)).toEqual({
        admitted: false,
        spent_nanos: 950,
        reserved_nanos: 0,
      });
      expect(await store.budgets.reserve(keyOf(ws, 'e'), ref, 50)).toMatchObject({
        admitted: true,
      });
      expect(await store.budgets.reserve(keyOf(ws, 'f'), ref, 0)).toMatchObject({
        admitted: false,
      });
    });

    it("finds an earlier attempt's open reservation and what its usage cost", async () => {
      const ws = fresh('w');
      const ref = { scope: ws, budget_id: 'cap', period_key: '2026-03-01', limit_nanos: 1_000 };
      await store.budgets.reserve(keyOf(ws, 'a', 1), ref, 100);
      await store.usage.recordUsage({
        ...keyOf(ws, 'a', 1),
        report: 0,
        model: 'm',
        input_tokens: 1,
        output_tokens: 1,
        cost_nanos: 42,
      });
      expect(await store.budgets.openAttemptsBefore(keyOf(ws, 'a'), 2)).toEqual([1]);
      expect(await store.budgets.openAttemptsBefore(keyOf(ws, 'a'), 1)).toEqual([]);
      expect(await store.budgets.attemptCost(keyOf(ws, 'a', 1))).toBe(42);
    });
  });
}

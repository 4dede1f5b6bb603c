import { describe, expect, it } from 'vitest';
import {
  type Budget,
  budgetApplies,
  budgetsInForce,
  everyBudgetInForce,
  nextPeriodStartMs,
  periodKey,
  periodStartMs,
} from '../../src/core/index.js';

// Budget periods are UTC days, weeks from Monday and calendar months.

const at = Date.parse('2026-12-31T23:59:59.999Z'); // a Thursday, the year's last instant

describe('budget periods', () => {
  it('start at UTC midnight, on Monday, on the 1st', () => {
    expect(new Date(periodStartMs('day', at)).toISOString()).toBe('2026-12-31T00:00:00.000Z');
    expect(new Date(periodStartMs('week', at)).toISOString()).toBe('2026-12-28T00:00:00.000Z');
    expect(new Date(periodStartMs('month', at)).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    // A Monday's week starts that day; a Sunday's six days before.
    expect(periodKey('week', Date.parse('2026-12-28T00:00:00Z'))).toBe('2026-12-28');
    expect(periodKey('week', Date.parse('2027-01-03T12:00:00Z'))).toBe('2026-12-28');
  });

  it('roll over into the next day, week and month, across a year', () => {
    expect(new Date(nextPeriodStartMs('day', at)).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(new Date(nextPeriodStartMs('week', at)).toISOString()).toBe('2027-01-04T00:00:00.000Z');
    expect(new Date(nextPeriodStartMs('month', at)).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(periodKey('month', Date.parse('2027-02-28T10:00:00Z'))).toBe('2027-02-01');
  });
});

describe('which budgets count an evaluation', () => {
  const ref = { name: 'judge', version: '2' };
  it('by evaluator name or exact version, globally or in its workspace', () => {
    expect(budgetApplies({ evaluator: 'judge' }, ref, 'w')).toBe(true);
    expect(budgetApplies({ evaluator: 'judge@2' }, ref, 'w')).toBe(true);
    expect(budgetApplies({ evaluator: 'judge@1' }, ref, 'w')).toBe(false);
    expect(budgetApplies({ evaluator: 'judge', workspace: 'w' }, ref, 'w')).toBe(true);
    expect(budgetApplies({ evaluator: 'judge', workspace: 'v' }, ref, 'w')).toBe(false);
  });
});

describe('the budgets in force in a workspace', () => {
  const budget = (budgetId: string, workspace?: string): Budget => ({
    budgetId,
    evaluator: 'judge',
    period: 'day',
    limitUsd: 1,
    onExhausted: 'skip',
    ...(workspace === undefined ? {} : { workspace }),
  });
  it("are the config's global and own ones, a workspace's own overriding its namesake there only", () => {
    const config = [budget('cap'), budget('daily', 'w'), budget('daily', 'v')];
    const own = [budget('daily', 'w'), budget('cap', 'w')];
    const inForce = budgetsInForce(config, own, 'w').map((b) => [
      b.budget.budgetId,
      b.scope,
      b.source,
    ]);
    // The global `cap` stays: a workspace's own budget of the same id counts beside it.
    expect(inForce).toEqual([
      ['cap', '*', 'config'],
      ['daily', 'w', 'workspace'],
      ['cap', 'w', 'workspace'],
    ]);
    expect(budgetsInForce(config, [], 'v').map((b) => [b.budget.budgetId, b.scope])).toEqual([
      ['cap', '*'],
      ['daily', 'v'],
    ]);
  });

  it("over every workspace are each once: the global ones, then each workspace's, own ones overriding", () => {
    const config = [budget('cap'), budget('daily', 'w'), budget('daily', 'v')];
    const own = [budget('daily', 'w'), budget('cap', 'w'), budget('weekly', 'u')];
    expect(
      everyBudgetInForce(config, own).map((b) => [b.budget.budgetId, b.scope, b.source]),
    ).toEqual([
      ['cap', '*', 'config'],
      ['daily', 'v', 'config'],
      ['daily', 'w', 'workspace'],
      ['cap', 'w', 'workspace'],
      ['weekly', 'u', 'workspace'],
    ]);
    // One workspace's own budgets are never another's.
    expect(budgetsInForce(config, own, 'u').map((b) => [b.budget.budgetId, b.scope])).toEqual([
      ['cap', '*'],
      ['weekly', 'u'],
    ]);
  });
});

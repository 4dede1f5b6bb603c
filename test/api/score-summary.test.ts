import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqliteStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { summarizeScores } from '../../src/wire/score-summary.js';

// The score summary leaves a shadow version's verdicts out of its feedback type's current
// verdict (docs/specification.md#evaluator-verdicts), and lists them apart when asked.

const feedbackTypes = conformanceFeedbackTypes();
const dir = mkdtempSync(join(tmpdir(), 'evalflow-summary-'));
let store: Store;

beforeAll(async () => {
  store = openSqliteStore(join(dir, 'summary.db'), { feedbackTypes });
  const run = async (actor: object, command: object) => {
    const outcome = await store.executeUnchecked({ workspace_id: 'w', actor, command });
    if (outcome.type !== 'recorded') throw new Error(outcome.message);
  };
  await run({ kind: 'system', name: 'host' }, { type: 'create_thread', thread_id: 't' });
  await run({ kind: 'system', name: 'host' }, { type: 'start_run', run_id: 'r', thread_id: 't' });
  const verdict = (rating: number, shadow?: boolean) => ({
    type: 'give_feedback',
    feedback_type: 'helpfulness',
    target: { kind: 'turn', run_id: 'r' },
    value: { rating },
    ...(shadow === undefined ? {} : { shadow }),
  });
  const tone = (version: string) => ({ kind: 'evaluator', name: 'tone', version });
  await run(tone('1'), verdict(4));
  await run(tone('2'), verdict(2, true));
  await run(tone('2'), verdict(3, true));
});
afterAll(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const rows = async (includeShadow?: boolean) =>
  (
    await summarizeScores(store, feedbackTypes, 'w', {
      name: 'helpfulness.rating',
      ...(includeShadow === undefined ? {} : { includeShadow }),
    })
  ).map((group) => [group.producer, group.shadow, group.count, group.mean]);

describe('the score summary', () => {
  it('leaves shadow verdicts out of the current verdict by default', async () => {
    expect(await rows()).toEqual([['tone@1', false, 1, 4]]);
    expect(await rows(false)).toEqual([['tone@1', false, 1, 4]]);
  });

  it('lists shadow verdicts apart, in groups of their own, when asked', async () => {
    expect(await rows(true)).toEqual([
      ['tone@1', false, 1, 4],
      ['tone@2', true, 2, 2.5],
    ]);
  });
});

describe('the score summary per day', () => {
  it('splits each group by the UTC day its feedback was last given on, and only when asked', async () => {
    let clock = Date.parse('2026-05-01T23:59:59.000Z');
    const days = openSqliteStore(join(dir, 'days.db'), {
      feedbackTypes,
      now: () => new Date(clock),
    });
    try {
      const run = async (actor: object, command: object) => {
        const outcome = await days.executeUnchecked({ workspace_id: 'w', actor, command });
        if (outcome.type !== 'recorded') throw new Error(outcome.message);
      };
      const host = { kind: 'system', name: 'host' };
      await run(host, { type: 'create_thread', thread_id: 't' });
      for (const id of ['r1', 'r2', 'r3']) {
        await run(host, { type: 'start_run', run_id: id, thread_id: 't' });
      }
      const tone = { kind: 'evaluator', name: 'tone', version: '1' };
      const verdict = (run_id: string, rating: number) => ({
        type: 'give_feedback',
        feedback_type: 'helpfulness',
        target: { kind: 'turn', run_id },
        value: { rating },
      });
      await run(tone, verdict('r1', 4));
      clock = Date.parse('2026-05-02T00:00:00.000Z');
      await run(tone, verdict('r2', 2));
      await run(tone, verdict('r3', 3));
      const summary = (per?: 'day') =>
        summarizeScores(days, feedbackTypes, 'w', {
          name: 'helpfulness.rating',
          ...(per ? { per } : {}),
        });
      expect((await summary('day')).map((g) => [g.day, g.count, g.mean])).toEqual([
        ['2026-05-01', 1, 4],
        ['2026-05-02', 2, 2.5],
      ]);
      expect((await summary()).map((g) => [Object.hasOwn(g, 'day'), g.count, g.mean])).toEqual([
        [false, 3, 3],
      ]);
    } finally {
      await days.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { Needs, ViewChange } from '../../src/core/index.js';
import type { Row, Sql } from '../../src/store/backend.js';
import { WarmWorkspaces } from '../../src/store/commands/warm-workspaces.js';

// The warm state's own bookkeeping; the contract suites (store-contract.ts) prove it against
// real databases shared by two stores.

const noNeeds = (): Needs => ({
  threads: [],
  runs: [],
  artifacts: [],
  messages: [],
  ratingsOn: [],
  ownFeedback: [],
  scoreConfigs: [],
  judgeVersions: [],
});

/** Sql that answers every query with no rows and counts the queries. */
function emptyDatabase() {
  const queries: string[] = [];
  const sql: Sql = {
    all: async (text) => {
      queries.push(text);
      return [] as Row[];
    },
    run: async () => {},
  };
  return { sql, queries };
}

const thread = (id: string): ViewChange => ({
  view: 'threads',
  key: id,
  value: { thread_id: id, title: null, created_at: '2026-01-01T00:00:00.000Z' },
});

describe('the warm workspace states', () => {
  it('loads a need once, then knows it, an absent entity included', async () => {
    const warm = new WarmWorkspaces();
    const { sql, queries } = emptyDatabase();
    const needs = { ...noNeeds(), threads: ['t1'] };
    const entry = await warm.loaded(sql, 'w', 3, '', needs);
    expect(queries).toHaveLength(1);
    await warm.loaded(sql, 'w', 3, '', needs);
    expect(queries).toHaveLength(1);
    expect(warm.unknownEntities(entry, needs)).toEqual([]);
    expect(warm.unknownEntities(entry, { ...needs, runs: ['r1'] })).toEqual([
      { view: 'runs', key: 'r1' },
    ]);
  });

  it('serves an entry only at its seq, and starts afresh at another', async () => {
    const warm = new WarmWorkspaces();
    const { sql, queries } = emptyDatabase();
    const needs = { ...noNeeds(), threads: ['t1'] };
    const entry = await warm.loaded(sql, 'w', 3, '', needs);
    warm.committed('w', entry, 4, 'ts', [thread('t2')]);
    expect(warm.at('w', 3)).toBeUndefined();
    expect(warm.at('w', 4)?.state.threads.has('t2')).toBe(true);
    const moved = await warm.loaded(sql, 'w', 9, '', needs);
    expect(moved).not.toBe(entry);
    expect(moved.state.threads.size).toBe(0);
    expect(queries).toHaveLength(2);
  });

  it('reads, never assumes, feedback it does not know', async () => {
    const warm = new WarmWorkspaces();
    const entry = await warm.loaded(emptyDatabase().sql, 'w', 1, '', noNeeds());
    expect(
      warm.unknownEntities(entry, {
        ...noNeeds(),
        ratingsOn: [{ thread_id: 't1', message_id: 'm1' }],
      }),
    ).toBeNull();
  });

  it('forgets a workspace on drop, one holding too many entities, and the oldest of too many', async () => {
    const warm = new WarmWorkspaces();
    const { sql } = emptyDatabase();
    const entry = await warm.loaded(sql, 'w', 1, '', noNeeds());
    warm.drop('w');
    expect(warm.latest('w')).toBeUndefined();
    // A commit to a dropped entry changes nothing.
    warm.committed('w', entry, 2, '', [thread('t1')]);
    expect(warm.latest('w')).toBeUndefined();

    const big = await warm.loaded(sql, 'big', 1, '', noNeeds());
    warm.committed(
      'big',
      big,
      2,
      '',
      Array.from({ length: 5001 }, (_, i) => thread(`t${i}`)),
    );
    expect(warm.latest('big')).toBeUndefined();

    for (let i = 0; i <= 1000; i++) await warm.loaded(sql, `w${i}`, 1, '', noNeeds());
    expect(warm.latest('w0')).toBeUndefined();
    expect(warm.latest('w1')).toBeDefined();
    expect(warm.latest('w1000')).toBeDefined();
  });
});

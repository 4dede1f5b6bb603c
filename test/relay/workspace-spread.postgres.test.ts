import { Client, Connection } from '@temporalio/client';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Following,
  fairShare,
  followWorkspaces,
  RELAY_CURSOR,
} from '../../src/relay/index.js';
import { openPostgresStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';
import { eventually } from '../support/processes.js';

// How the relays of several processes on one Postgres store share its workspaces. Each follower
// here has a store of its own, so its own sessions for leases and word of appends, as a process
// of its own would (test/relay/relay-balance.temporal.test.ts runs real worker processes). The
// workspaces hold threads only, which no workflow takes: the relays move their cursors and never
// call Temporal, so their client's connection is never made.

// A schema per test: each sees only its own workspaces.
const schemas: string[] = [];
let schema = '';
const opened: Store[] = [];
const followers: Following[] = [];
const open = async () => {
  const store = await openPostgresStore(
    { databaseUrl: databaseUrl(), schema },
    { feedbackTypes: conformanceFeedbackTypes() },
  );
  opened.push(store);
  return store;
};
const client = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });

beforeEach(() => {
  schema = freshSchemaName();
  schemas.push(schema);
});
afterEach(async () => {
  await Promise.all(followers.splice(0).map((following) => following.close()));
  storeOf.clear();
  await Promise.all(opened.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  for (const name of schemas) await dropSchema(databaseUrl(), name);
});

let workspaces = 0;
/** Workspaces of one thread each, named for the test. */
async function newWorkspaces(host: Store, tag: string, count: number): Promise<string[]> {
  const names = Array.from({ length: count }, () => `${tag}-${++workspaces}`);
  for (const workspace_id of names) {
    await host.execute({
      workspace_id,
      actor: { kind: 'system', name: 'test' },
      command: { type: 'create_thread', thread_id: 't' },
    });
  }
  return names;
}

/** The store of each follower, by follower. */
const storeOf = new Map<Following, Store>();
/** A follower with a store of its own, looking every `pollMs`. */
async function follower(pollMs = 200): Promise<Following> {
  const store = await open();
  const following = followWorkspaces({
    store,
    client,
    taskQueue: 'unused',
    rules: [],
    pollMs,
    onError: (error) => {
      throw error;
    },
  });
  followers.push(following);
  storeOf.set(following, store);
  return following;
}

/** What each follower relays of `names`, once every one of them is relayed by exactly one. */
function settled(all: readonly Following[], names: readonly string[], share: number) {
  const shares = () => all.map((f) => f.relaying().filter((id) => names.includes(id)));
  return eventually(
    async () => shares(),
    (now) => {
      const held = now.flat();
      return (
        held.length === names.length &&
        new Set(held).size === names.length &&
        now.every((mine) => mine.length <= share)
      );
    },
    20_000,
  );
}

describe('relays of several processes on one Postgres store', () => {
  it('take a fair share each, rounded up', () => {
    expect(fairShare(30, 3)).toBe(10);
    expect(fairShare(31, 3)).toBe(11);
    expect(fairShare(2, 3)).toBe(1);
    expect(fairShare(5, 0)).toBe(5);
  });

  it('spread the workspaces evenly, and again when a process joins and when one leaves', async () => {
    const host = await open();
    const names = await newWorkspaces(host, 'spread', 12);
    const [a, b] = [await follower(), await follower()];
    const two = await settled([a, b], names, 6);
    expect(two.map((mine) => mine.length)).toEqual([6, 6]);

    const c = await follower();
    const three = await settled([a, b, c], names, 4);
    expect(three.map((mine) => mine.length)).toEqual([4, 4, 4]);
    // The newcomer's workspaces were handed over, not taken from under a holder: each is relayed
    // to the log's head.
    for (const workspace of names) {
      expect(
        await eventually(
          () => host.cursor(workspace, RELAY_CURSOR),
          (s) => s === 1,
        ),
      ).toBe(1);
    }

    // One leaves: its workspaces go to the two left, evenly.
    await a.close();
    followers.splice(followers.indexOf(a), 1);
    const left = await settled([b, c], names, 6);
    expect(left.map((mine) => mine.length)).toEqual([6, 6]);
  });

  it("relay a new workspace's first event within 200 ms of its commit, by word of it", async () => {
    const host = await open();
    // Looking only once a minute: what is taken up in time is taken up by word.
    const all = [await follower(60_000), await follower(60_000), await follower(60_000)];
    await eventually(
      async () => all.every((following) => following.relaying().length === 0),
      (idle) => idle,
    );
    // Their listening sessions take a moment to start: word reaches each once its LISTEN is up.
    expect(
      await eventually(
        async () => all.every((following) => storeOf.get(following)?.listening),
        (up) => up,
        20_000,
        5,
      ),
    ).toBe(true);
    const delays: number[] = [];
    for (let i = 0; i < 6; i++) {
      const committedAt = Date.now();
      const [workspace = ''] = await newWorkspaces(host, 'arrival', 1);
      await eventually(
        () => host.cursor(workspace, RELAY_CURSOR),
        (seq) => seq === 1,
        10_000,
        5,
      );
      delays.push(Date.now() - committedAt);
    }
    // The bound for the median; a loaded machine may stretch one of them.
    delays.sort((x, y) => x - y);
    expect(delays[Math.floor(delays.length / 2)]).toBeLessThan(200);
    const holders = all.map((following) => following.relaying().length);
    expect(holders.reduce((sum, n) => sum + n, 0)).toBe(6);
    expect(Math.max(...holders)).toBeLessThanOrEqual(2);
  });
});

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore, type Store } from '../../src/store/index.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { databaseUrl, dropSchema, freshSchemaName } from '../support/postgres.js';
import { eventually, repoRoot, runTypeScript, waitForLine } from '../support/processes.js';

// Many processes on one Postgres store: leases (advisory locks on a session of their own) and
// word of appends (LISTEN/NOTIFY). Other processes are real ones where a death matters.

const schema = freshSchemaName();
const opened: Store[] = [];
const open = async (pollMs?: number) => {
  const store = await openPostgresStore(
    { databaseUrl: databaseUrl(), schema },
    { feedbackTypes: conformanceFeedbackTypes(), ...(pollMs ? { pollMs } : {}) },
  );
  opened.push(store);
  return store;
};
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await dropSchema(databaseUrl(), schema);
});

const holder = new URL('./fixtures/hold-leases.ts', import.meta.url).pathname;
const names = (leases: { name: string }[]) => leases.map((lease) => lease.name).sort();

/** Runs SQL on a connection of its own, as an operator would. */
async function asOperator<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('leases on Postgres', () => {
  it('have one holder at a time, whoever asks, and pass on when released', async () => {
    const [a, b] = [await open(), await open()];
    const [first, second] = await Promise.all([
      a.leases.take(['relay:one', 'relay:two']),
      b.leases.take(['relay:one', 'relay:two']),
    ]);
    // Each name went to exactly one of the two stores.
    expect([...names(first), ...names(second)].sort()).toEqual(['relay:one', 'relay:two']);
    const [holder, other, lease] = first.length > 0 ? [a, b, first[0]] : [b, a, second[0]];
    expect(await other.leases.take([lease?.name ?? ''])).toEqual([]);
    // Asked again by the holder itself, a held name is not handed out twice.
    expect(await holder.leases.take([lease?.name ?? ''])).toEqual([]);
    await lease?.release();
    expect(names(await other.leases.take([lease?.name ?? '']))).toEqual([lease?.name]);
  });

  it('move to another process when the holder is killed (SIGKILL)', async () => {
    const child = runTypeScript(holder, [databaseUrl(), schema, 'relay:killed'], {
      cwd: repoRoot,
      env: process.env,
    });
    try {
      expect(await waitForLine(child, /^held /)).toBe('held relay:killed');
      const survivor = await open();
      expect(await survivor.leases.take(['relay:killed'])).toEqual([]);
      const killedAt = Date.now();
      child.kill('SIGKILL');
      const taken = await eventually(
        () => survivor.leases.take(['relay:killed']),
        (leases) => leases.length > 0,
        10_000,
      );
      expect(names(taken)).toEqual(['relay:killed']);
      // The bound; the server frees a dead client's locks as its socket closes.
      expect(Date.now() - killedAt).toBeLessThan(10_000);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('are lost, and say so, when their session ends under them', async () => {
    const [a, b] = [await open(), await open()];
    const [lease] = await a.leases.take(['relay:cut']);
    expect(lease?.name).toBe('relay:cut');
    // The operator ends every leases session of this process: a's (and b's, which holds none).
    const ended = await asOperator(async (client) => {
      const { rowCount } = await client.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
        [`evalflow leases (pid ${process.pid})`],
      );
      return rowCount;
    });
    expect(ended).toBeGreaterThan(0);
    await lease?.lost;
    expect(names(await b.leases.take(['relay:cut']))).toEqual(['relay:cut']);
    // The loser connects afresh and finds the lease taken.
    expect(await a.leases.take(['relay:cut'])).toEqual([]);
  });

  it("are counted, whoever holds them: this process's and another's, until they free", async () => {
    const slots = ['member:0', 'member:1', 'member:2', 'member:3'];
    const child = runTypeScript(holder, [databaseUrl(), schema, 'member:1', 'member:2'], {
      cwd: repoRoot,
      env: process.env,
    });
    try {
      expect(await waitForLine(child, /^held /)).toBe('held member:1,member:2');
      const counter = await open();
      const [mine] = await counter.leases.take(['member:0']);
      expect(mine?.name).toBe('member:0');
      // Each name once, though asked twice.
      expect(await counter.leases.countHeld([...slots, 'member:0'])).toBe(3);
      // Another store of the database (another process) sees the same holders.
      expect(await (await open()).leases.countHeld(slots)).toBe(3);
      await mine?.release();
      child.kill('SIGKILL');
      // The server frees a dead client's locks as its socket closes.
      expect(
        await eventually(
          () => counter.leases.countHeld(slots),
          (held) => held === 0,
          10_000,
        ),
      ).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('of two stores in other schemas of one database never meet', async () => {
    const otherSchema = freshSchemaName();
    const other = await openPostgresStore(
      { databaseUrl: databaseUrl(), schema: otherSchema },
      { feedbackTypes: conformanceFeedbackTypes() },
    );
    try {
      const mine = await open();
      expect(names(await mine.leases.take(['relay:shared-name']))).toEqual(['relay:shared-name']);
      expect(await other.leases.countHeld(['relay:shared-name'])).toBe(0);
      expect(names(await other.leases.take(['relay:shared-name']))).toEqual(['relay:shared-name']);
    } finally {
      await other.close();
      await dropSchema(databaseUrl(), otherSchema);
    }
  });
});

describe('word of appends on Postgres (LISTEN/NOTIFY)', () => {
  const append = (store: Store, workspace_id: string, thread_id: string) =>
    store.executeUnchecked({
      workspace_id,
      actor: { kind: 'system' },
      command: { type: 'create_thread', thread_id },
    });

  it("wakes another store's idle follower long before its poll would", async () => {
    // Polls once a minute at most: without a wake, an append waits for the next poll.
    const follower = await open(60_000);
    const host = await open();
    const seen: number[] = [];
    const subscription = follower.subscribe({ workspace_id: 'notified' }, (envelope) => {
      seen.push(envelope.seq);
    });
    try {
      await append(host, 'notified', 'first');
      await eventually(
        async () => seen.length,
        (n) => n === 1,
        20_000,
      );
      // Idle for 7 s, the follower's pause has doubled past 6 s (50 ms, 100 ms, ... 6.4 s).
      await new Promise((resolve) => setTimeout(resolve, 7000));
      const appendedAt = Date.now();
      await append(host, 'notified', 'second');
      await eventually(
        async () => seen.length,
        (n) => n === 2,
        20_000,
      );
      expect(seen).toEqual([1, 2]);
      expect(Date.now() - appendedAt).toBeLessThan(4000);
    } finally {
      await subscription.close();
    }
  });

  it("tells a store's watchers of another store's appends, with no follower to wake", async () => {
    const watcher = await open();
    const host = await open();
    const told: string[] = [];
    const stop = watcher.watchAppends((workspace) => told.push(workspace));
    try {
      // The watch starts the listening session: wait until it is there.
      await eventually(
        () =>
          asOperator(async (client) => {
            const { rowCount } = await client.query(
              'SELECT 1 FROM pg_stat_activity WHERE application_name = $1',
              [`evalflow notifications (pid ${process.pid})`],
            );
            return rowCount ?? 0;
          }),
        (n) => n > 0,
        20_000,
      );
      const appendedAt = Date.now();
      await append(host, 'watched-elsewhere', 'first');
      await eventually(
        async () => told.filter((workspace) => workspace === 'watched-elsewhere').length,
        (n) => n > 0,
        10_000,
      );
      // Word, not a poll: no follower polls here at all.
      expect(Date.now() - appendedAt).toBeLessThan(2000);
    } finally {
      stop();
    }
  });

  it('listens again after its session is cut off, and wakes its followers then', async () => {
    const follower = await open(60_000);
    const host = await open();
    const seen: number[] = [];
    const subscription = follower.subscribe({ workspace_id: 'reconnected' }, (envelope) => {
      seen.push(envelope.seq);
    });
    const listeners = () =>
      asOperator(async (client) => {
        const { rows } = await client.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
          [`evalflow notifications (pid ${process.pid})`],
        );
        return rows.map((row) => row.pid);
      });
    try {
      const before = await eventually(listeners, (pids) => pids.length > 0, 20_000);
      // Idle for 7 s, the follower's next poll is over 6 s away.
      await new Promise((resolve) => setTimeout(resolve, 7000));
      const cutAt = Date.now();
      await asOperator((client) =>
        client.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]),
      );
      // Appended while nobody of this process listens: the reconnection's wake finds it.
      await append(host, 'reconnected', 'while-cut-off');
      await eventually(
        listeners,
        (pids) => pids.length > 0 && pids.every((pid) => !before.includes(pid)),
        20_000,
      );
      await eventually(
        async () => seen.length,
        (n) => n === 1,
        20_000,
      );
      expect(seen).toEqual([1]);
      expect(Date.now() - cutAt).toBeLessThan(4000);
    } finally {
      await subscription.close();
    }
  });

  it('a store announces on a channel of its own, one per store id', async () => {
    const store = await open();
    const channel = `evalflow_${store.id.replace(/-/g, '')}`;
    const heard = await asOperator(async (client) => {
      const payloads: string[] = [];
      client.on('notification', (message) => {
        if (message.channel === channel) payloads.push(message.payload ?? '');
      });
      await client.query(`LISTEN "${channel}"`);
      await append(store, 'announced', 't1');
      await append(store, 'announced', 't2');
      await eventually(
        async () => payloads.length,
        (n) => n >= 1,
        10_000,
      );
      return payloads;
    });
    expect(new Set(heard)).toEqual(new Set(['announced']));
  });
});

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/index.js';
import { startCheckpointer } from '../../src/store/sqlite/checkpointer.js';
import { conformanceFeedbackTypes } from '../../src/testing/index.js';
import { finished, repoRoot } from '../support/processes.js';

// The SQLite writer checkpoints nothing itself (a checkpoint inside a commit stalls the event
// loop): a thread of its own keeps the WAL from growing without bound.

const dir = mkdtempSync(join(tmpdir(), 'evalflow-checkpoints-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps the WAL bounded while appends go on, with the writer’s own checkpoints off', async () => {
  const path = join(dir, 'bounded.db');
  const store = openSqliteStore(path, { feedbackTypes: conformanceFeedbackTypes() });
  try {
    const system = { kind: 'system', name: 'bench' } as const;
    const probe = new Database(path, { readonly: true });
    expect(probe.pragma('wal_autocheckpoint', { simple: true })).toBe(1000); // a new connection's
    probe.close();
    for (let i = 0; i < 6000; i++) {
      const outcome = await store.execute({
        workspace_id: 'w',
        actor: system,
        command: { type: 'create_thread', thread_id: `t${i}`, title: 'x'.repeat(500) },
      });
      expect(outcome.type).toBe('recorded');
    }
    // 6,000 appends of about four pages each are some 96 MB of WAL frames. Reused from the start
    // after each checkpoint, the file stays far smaller: a few megabytes while the thread keeps
    // up, and at most the 2,000 commits (about 32 MB) the writer lets it fall behind by when
    // appends come too fast for it to find the database idle, as on a quick, quiet machine.
    expect(statSync(`${path}-wal`).size).toBeLessThan(40 * 1024 * 1024);
  } finally {
    await store.close();
  }
}, 120_000);

it('tells its failure once, so the writer can checkpoint by itself again', async () => {
  const failures: string[] = [];
  const checkpointer = startCheckpointer(join(dir, 'no-such-folder', 'x.db'), {
    checkpointHere: () => {},
    onFailure: (error) => failures.push(error.message),
  });
  await expect.poll(() => failures.length).toBe(1);
  checkpointer.committed();
  await checkpointer.close();
  expect(failures[0]).toMatch(/directory does not exist|unable to open/);
});

it('lets a script that closes its store finish: closing waits for the thread with the process held open', async () => {
  // The thread is unreferenced while it runs; without holding the process open for its exit, a
  // script's top-level `await store.close()` ended the process with code 13 halfway.
  const script = `
    import { openSqliteStore } from ${JSON.stringify(join(repoRoot, 'src/store/index.ts'))};
    const store = openSqliteStore(process.argv[1], { feedbackTypes: { get: () => undefined, list: () => [] } });
    await store.close();
    console.log('closed');`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '--eval', script, join(dir, 'script.db')],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const result = await finished(child);
  expect(result.err).toBe('');
  expect(result).toMatchObject({ code: 0, out: 'closed\n' });
}, 60_000);

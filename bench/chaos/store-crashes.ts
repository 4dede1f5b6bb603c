import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { defineConfig } from '../../src/config/index.js';
import { replay } from '../../src/core/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../../src/store/index.js';
import { seeded } from './seeded.js';

// Scenario 5: a process appends to the store (append-child.ts) and is SIGKILLed at random
// moments, then started again, retrying every command it had not seen acknowledged under the
// same command id. Afterwards the log must be gap-free, every acknowledged command in it exactly
// once, and every view equal to a replay of the log.

const child = fileURLToPath(new URL('./append-child.ts', import.meta.url));
const tsxLoader = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

export type CrashTarget =
  | { backend: 'sqlite'; path: string }
  | { backend: 'postgres'; url: string; schema: string };

export interface StoreCrashFigures {
  kills: number;
  acknowledged: number;
  /** Acknowledged commands not in the log. */
  lost: number;
  /** Commands in the log more than once. */
  duplicated: number;
  /** Missing seqs between 1 and the head. */
  gaps: number;
  viewsEqualReplay: boolean;
  events: number;
}

function appender(target: CrashTarget, from: number): ChildProcess {
  const where = target.backend === 'sqlite' ? [target.path] : [target.url, target.schema];
  return spawn(
    process.execPath,
    ['--import', tsxLoader, child, target.backend, ...where, String(from)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

export async function crashStore(
  target: CrashTarget,
  options: { kills: number; seed?: number },
): Promise<StoreCrashFigures> {
  const random = seeded(options.seed ?? 5);
  const acked = new Set<string>();
  let failure = '';
  for (let kill = 0; kill <= options.kills; kill++) {
    // Retry from the lowest number whose two commands were not both acknowledged.
    let from = 0;
    while (acked.has(`t${from}`) && acked.has(`m${from}`)) from++;
    const process_ = appender(target, from);
    let buffered = '';
    let ready = false;
    process_.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line === 'ready') ready = true;
        else if (line.startsWith('ack ')) acked.add(line.slice(4));
      }
    });
    process_.stderr?.on('data', (chunk: Buffer) => {
      failure += chunk.toString();
    });
    const exited = once(process_, 'exit');
    // Kill it once it appends, at a random moment; the last round ends it the same way.
    const deadline = Date.now() + 60_000;
    while (!ready && process_.exitCode === null && Date.now() < deadline) await sleep(20);
    await sleep(150 + random() * 600);
    if (process_.exitCode !== null) {
      throw new Error(`the appender exited ${process_.exitCode} before it was killed:\n${failure}`);
    }
    process_.kill('SIGKILL');
    await exited;
  }

  const app = defineConfig({});
  const store: Store =
    target.backend === 'sqlite'
      ? openSqliteStore(target.path, app)
      : await openPostgresStore({ databaseUrl: target.url, schema: target.schema }, app);
  try {
    const ws = 'crash';
    const events = await store.events({ workspace_id: ws, limit: 10_000_000 });
    const seqs = events.map((envelope) => envelope.seq);
    const head = await store.head(ws);
    let gaps = head - events.length;
    for (const [i, seq] of seqs.entries()) if (seq !== i + 1) gaps = Math.max(gaps, 1);
    const written = new Map<string, number>();
    for (const { event } of events) {
      const id =
        event.type === 'thread_created'
          ? (event as { thread_id: string }).thread_id
          : event.type === 'message_posted'
            ? (event as { message_id: string }).message_id
            : event.type;
      written.set(id, (written.get(id) ?? 0) + 1);
    }
    const lost = [...acked].filter((id) => !written.has(id)).length;
    const duplicated = [...written.values()].filter((n) => n > 1).length;
    return {
      kills: options.kills + 1,
      acknowledged: acked.size,
      lost,
      duplicated,
      gaps,
      viewsEqualReplay: isDeepStrictEqual(await store.views(ws), replay(events)),
      events: events.length,
    };
  } finally {
    await store.close();
  }
}

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// SQLite checkpoints its WAL into the database file on the connection that commits past 1,000
// pages, synchronously: with better-sqlite3 that is this process's event loop, and every request
// in flight waits behind it. The writer's automatic checkpoints are turned off instead, and a
// thread of its own with a connection of its own copies the WAL back when told the WAL grew, and
// at least every second. PASSIVE passes, which the writer commits beside: once one catches up,
// the writer's next commit starts the WAL afresh. A writer that keeps committing can stay ahead
// of them, so past TRUNCATE_FRAMES a TRUNCATE follows, which copies what is left and empties the
// file: while it runs, a write transaction finds the database busy and the store retries it
// asynchronously (`whenNotBusy`), so the event loop serves everything else meanwhile. (TRUNCATE
// at every request held the writer off for 100–280 µs per append on a loaded machine, issue 35.)
// Should the thread fall behind (starved of CPU, or busy each time), the writer checkpoints once
// by itself, so the WAL stays bounded whatever happens.

/** Commits between two requests for a checkpoint: about SQLite's own 1,000-page threshold. */
const COMMITS_PER_CHECKPOINT = 200;
/** Commits without a finished checkpoint after which the writer checkpoints by itself. */
const COMMITS_BEFORE_WRITER_CHECKPOINTS = 2000;
const CHECKPOINT_EVERY_MS = 1000;
/** WAL frames (pages) past which a checkpoint truncates the WAL: about 16 MB. */
const TRUNCATE_FRAMES = 4000;

// The thread's code, CommonJS; the driver's path is handed over, so it resolves as ours does.
const CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 2000');
const checkpoint = () => {
  try {
    // PASSIVE copies the WAL back while the writer goes on; caught up, the writer's next commit
    // starts the WAL afresh. Only a WAL past the bound gets TRUNCATE, which holds writers off.
    let log = 0;
    for (let pass = 0; pass < 3; pass++) {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)');
      log = result.log;
      if (result.busy !== 0 || result.checkpointed === result.log) break;
    }
    const [{ busy }] =
      log > workerData.truncateFrames ? db.pragma('wal_checkpoint(TRUNCATE)') : [{ busy: 0 }];
    if (busy === 0) parentPort.postMessage('checkpointed');
  } catch {
    // Busy or locked for now: the next request, or the timer, tries again.
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message === 'checkpoint') checkpoint();
  if (message === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

export interface Checkpointer {
  /** Tells the checkpointer a transaction committed. */
  committed(): void;
  /** Stops the thread; its connection closes. */
  close(): Promise<void>;
}

export interface CheckpointerOptions {
  /** A checkpoint on the writer itself, when the thread has fallen behind or failed. */
  checkpointHere(): void;
  /** Told once should the thread fail (its driver cannot open the file, say). */
  onFailure(error: Error): void;
}

/** A checkpointing thread for the database at `path`; its writer must have wal_autocheckpoint 0. */
export function startCheckpointer(path: string, options: CheckpointerOptions): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CODE, {
    eval: true,
    // Plain CommonJS: none of the parent's flags (`--input-type=module` would make it ESM).
    execArgv: [],
    workerData: { path, driver, everyMs: CHECKPOINT_EVERY_MS, truncateFrames: TRUNCATE_FRAMES },
  });
  // A process with nothing else to do exits; the thread never holds it open.
  worker.unref();
  let failed = false;
  let sinceCheckpoint = 0;
  worker.on('message', () => {
    sinceCheckpoint = 0;
  });
  worker.once('error', (error) => {
    failed = true;
    options.onFailure(error);
  });
  return {
    committed() {
      sinceCheckpoint += 1;
      if (sinceCheckpoint >= COMMITS_BEFORE_WRITER_CHECKPOINTS) {
        sinceCheckpoint = 0;
        options.checkpointHere();
      } else if (!failed && sinceCheckpoint % COMMITS_PER_CHECKPOINT === 0) {
        worker.postMessage('checkpoint');
      }
    },
    async close() {
      if (failed) return;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      // Waiting for its exit must hold the process open, or a closing process ends mid-await.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}

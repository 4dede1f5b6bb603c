// The worker of `npm run bench:threads`, in a process of its own so that its RSS is the worker's
// alone: evalflow's own worker settings (`createWorker`) and real activities on the bench's
// SQLite store. It answers each `memory` message with its RSS and JS heap (MB) once it has
// collected its garbage.
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createActivities } from '../src/activities/create-activities.js';
import { openSqliteStore } from '../src/store/index.js';
import { InMemoryScoreSink } from '../src/testing/index.js';
import { createWorker } from '../src/worker/create-worker.js';
import { evaluators, feedbackTypes } from './threads-app.js';

const [address = '', namespace = 'default', taskQueue = '', bundlePath = '', storePath = ''] =
  process.argv.slice(2);
Runtime.install({ logger: new DefaultLogger('WARN') });
const store = openSqliteStore(storePath, { feedbackTypes, evaluators });
const sink = new InMemoryScoreSink();
const connection = await NativeConnection.connect({ address });
const worker = await createWorker({
  connection,
  namespace,
  taskQueue,
  workflowBundle: { codePath: bundlePath },
  activities: createActivities({
    store,
    evaluators,
    feedbackTypes,
    scoreSink: sink,
    scoreReader: sink,
  }),
});
const running = worker.run();

process.on('message', async (message) => {
  if (message === 'stop') {
    worker.shutdown();
    await running;
    await connection.close();
    await store.close();
    process.exit(0);
  }
  if (message !== 'memory') return;
  for (let i = 0; i < 3; i++) {
    globalThis.gc?.();
    await sleep(200);
  }
  const { rss, heapUsed } = process.memoryUsage();
  process.send?.({
    rss: rss / 2 ** 20,
    heap: heapUsed / 2 ** 20,
    cached: worker.getStatus().numCachedWorkflows,
  });
});
process.send?.('ready');

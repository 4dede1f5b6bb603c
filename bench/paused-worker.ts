// The worker of `npm run bench:paused`, in a process of its own so that its RSS is the worker's
// alone, not the client's that starts and inspects 10,000 runs. It answers each `memory` message
// with its RSS and JS heap (MB) once it has collected its garbage.
import { setTimeout as sleep } from 'node:timers/promises';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createWorker } from '../src/worker/create-worker.js';

const [address = '', namespace = 'default', taskQueue = '', bundlePath = ''] =
  process.argv.slice(2);
Runtime.install({ logger: new DefaultLogger('WARN') });
const connection = await NativeConnection.connect({ address });
const worker = await createWorker({
  connection,
  namespace,
  taskQueue,
  workflowBundle: { codePath: bundlePath },
});
const running = worker.run();

process.on('message', async (message) => {
  if (message === 'stop') {
    worker.shutdown();
    await running;
    await connection.close();
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

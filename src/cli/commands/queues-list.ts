import { wireProgress, wireReviewQueue } from '../../wire/review-queues.js';
import { appOf, withStore } from '../context.js';
import { renderTable } from '../presentation/table.js';
import { printTo, type Terminal } from '../terminal.js';
import { queuesOf } from './queues-in-force.js';

/** `evalflow queues list`: the queues in force in a workspace, each with its progress. */
export async function listQueues(
  terminal: Terminal,
  options: { workspace: string; archived?: boolean; config?: string; json?: boolean },
) {
  const print = printTo(terminal);
  const { config, app } = await appOf(options, terminal);
  const listed = await withStore(
    config,
    async (store) => {
      const now = new Date();
      const all = (await queuesOf(store, app, options.workspace)).filter(
        (queue) => options.archived || !queue.archived,
      );
      return Promise.all(
        all.map(async (queue) => ({
          ...wireReviewQueue(queue),
          progress: wireProgress(
            await store.reviewQueues.counts(options.workspace, queue.queue_id, now),
          ),
        })),
      );
    },
    app,
  );
  if (options.json) return print(JSON.stringify(listed));
  if (listed.length === 0) return print(`no review queues in workspace ${options.workspace}`);
  const lines = renderTable(
    [
      'queue',
      'feedback type',
      'targets',
      'per item',
      'items',
      'items done',
      'pending',
      'leased',
      'done',
      'skipped',
      'last hour',
      'origin',
    ],
    listed.map((q) => [
      q.archived ? `${q.queueId} (archived)` : q.queueId,
      q.feedbackType,
      q.targetKinds.join(','),
      q.reviewersPerItem,
      q.progress.items,
      q.progress.itemsDone,
      q.progress.pending,
      q.progress.leased,
      q.progress.done,
      q.progress.skipped,
      q.progress.throughput.lastHour,
      q.origin,
    ]),
  );
  for (const line of lines) print(line);
}

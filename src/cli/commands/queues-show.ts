import { wireProgress, wireReviewerProgress, wireReviewQueue } from '../../wire/review-queues.js';
import { appOf, withStore } from '../context.js';
import { renderTable } from '../presentation/table.js';
import { printTo, type Terminal } from '../terminal.js';
import { queueOf } from './queues-in-force.js';

/** `evalflow queues show`: a queue's settings, its progress and each reviewer's. */
export async function showQueue(
  terminal: Terminal,
  queueId: string,
  options: { workspace: string; config?: string; json?: boolean },
) {
  const print = printTo(terminal);
  const { config, app } = await appOf(options, terminal);
  const shown = await withStore(
    config,
    async (store) => {
      const queue = await queueOf(store, app, options.workspace, queueId);
      const now = new Date();
      return {
        queue: wireReviewQueue(queue),
        progress: wireProgress(await store.reviewQueues.counts(options.workspace, queueId, now)),
        reviewers: (await store.reviewQueues.reviewerCounts(options.workspace, queueId, now)).map(
          wireReviewerProgress,
        ),
      };
    },
    app,
  );
  if (options.json) return print(JSON.stringify(shown));
  const { queue, progress, reviewers } = shown;
  print(
    `${queue.queueId}${queue.archived ? ' (archived)' : ''}: ${queue.feedbackType} on ${queue.targetKinds.join(', ')}, ` +
      `${queue.reviewersPerItem} reviewer${queue.reviewersPerItem === 1 ? '' : 's'} per item, ` +
      `${queue.blind ? 'blind' : 'not blind'}, leases of ${queue.leaseSeconds} s (${queue.origin})`,
  );
  for (const rule of queue.routing) print(`routing: ${JSON.stringify(rule)}`);
  print(
    `items ${progress.items} (${progress.itemsDone} done); slots pending ${progress.pending}, ` +
      `leased ${progress.leased}, done ${progress.done}; skipped ${progress.skipped}; ` +
      `verdicts in the last hour ${progress.throughput.lastHour}, last day ${progress.throughput.lastDay}`,
  );
  if (reviewers.length === 0) return print('no reviewer has taken an item yet');
  const lines = renderTable(
    ['reviewer', 'leased', 'done', 'skipped', 'last hour', 'last day'],
    reviewers.map((r) => [
      r.reviewer,
      r.leased,
      r.done,
      r.skipped,
      r.throughput.lastHour,
      r.throughput.lastDay,
    ]),
  );
  for (const line of lines) print(line);
}

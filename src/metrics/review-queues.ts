import { Gauge, type Registry } from 'prom-client';
import { sharedRead } from './shared-read.js';

// Review queues' gauges (their depth and leases), read at each scrape: the API process passes its
// store's figures (`startApi`, from `store.reviewQueues.figures`, summed over the workspaces).
// Queue ids are an operator's, declared like rules, so the label stays bounded.

/** One queue as its gauges show it. */
export interface ReviewQueueFigures {
  queue: string;
  /** Verdicts waiting for a reviewer (one per slot of an item not done), leased or not. */
  depth: number;
  /** Slots a reviewer holds a live lease on now. */
  leased: number;
}

export function reviewQueueMetrics(
  registry: Registry,
  read: () => Promise<readonly ReviewQueueFigures[]>,
): void {
  const figures = sharedRead(read);
  const gauge = (name: string, help: string, pick: (queue: ReviewQueueFigures) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        this.reset();
        for (const queue of await figures()) this.set({ queue: queue.queue }, pick(queue));
      },
    });
  gauge('evalflow_review_queue_depth', 'Items waiting in each review queue', (q) => q.depth);
  gauge(
    'evalflow_review_queue_leases',
    'Items of each review queue a reviewer holds',
    (q) => q.leased,
  );
}

import { condition } from '@temporalio/workflow';

/** Runs `work` on each item with at most `limit` in flight, in order of the items. */
export async function forEachBounded<T>(
  items: Iterable<T>,
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let inFlight = 0;
  const running: Promise<void>[] = [];
  for (const item of items) {
    await condition(() => inFlight < limit);
    inFlight += 1;
    running.push(
      work(item).finally(() => {
        inFlight -= 1;
      }),
    );
  }
  await Promise.all(running);
}

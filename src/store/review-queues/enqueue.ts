import { type Target, targetKey } from '../../core/index.js';
import type { Backend } from '../backend.js';
import { insertItems } from './insert-items.js';
import { reviewItemId } from './item.js';
import type { EnqueuedItem, ReviewQueueStore } from './port.js';
import { matchingTargets, resolveTargets } from './targets.js';
import { countItemVerdict, reviewersVerdicts } from './verdicts.js';

// Items added at once past which Postgres is told to analyze the queue tables: until its
// statistics know a queue is large, its planner may read a slot or an item through an index that
// names the queue alone, a scan of the whole queue (autovacuum analyzes later, on its own time).
const ANALYZE_AFTER = 1000;

/** Where targets are queued: the queue, its feedback type, and the caller's clock. */
interface QueuedTargets {
  workspace_id: string;
  queue_id: string;
  feedback_type: string;
  now: Date;
}

/** Queues the targets named, each checked to exist; a rejection names the first that does not. */
export async function enqueue(
  backend: Backend,
  input: Parameters<ReviewQueueStore['enqueue']>[0],
): ReturnType<ReviewQueueStore['enqueue']> {
  const resolved = await backend.read((sql) =>
    resolveTargets(sql, input.workspace_id, input.targets),
  );
  if (!Array.isArray(resolved)) return resolved;
  // A target named twice is one item: the first mention adds it.
  const byKey = new Map(resolved.map((target) => [targetKey(target), target]));
  const added = await backend.transaction((sql) =>
    insertItems(sql, { ...input, targets: [...byKey.values()] }),
  );
  await countEarlierVerdicts(backend, input, [...byKey.values()]);
  await analyzeAfter(backend, added.size);
  const seen = new Set<string>();
  return resolved.map((target): EnqueuedItem => {
    const key = targetKey(target);
    const first = !seen.has(key);
    seen.add(key);
    return {
      item_id: reviewItemId(input.queue_id, key),
      target,
      added: first && added.has(key),
    };
  });
}

/** Queues the targets a filter selects, page by page, up to the limit. */
export async function enqueueMatching(
  backend: Backend,
  input: Parameters<ReviewQueueStore['enqueueMatching']>[0],
): ReturnType<ReviewQueueStore['enqueueMatching']> {
  const counts = { added: 0, already_queued: 0 };
  let left = input.limit ?? Number.POSITIVE_INFINITY;
  const read = backend.read.bind(backend);
  for await (const page of matchingTargets(read, input.workspace_id, input.filter)) {
    const targets = page.slice(0, left);
    const added = await backend.transaction((sql) => insertItems(sql, { ...input, targets }));
    await countEarlierVerdicts(backend, input, targets);
    counts.added += added.size;
    counts.already_queued += targets.length - added.size;
    left -= targets.length;
    if (left <= 0) break;
  }
  await analyzeAfter(backend, counts.added);
  return counts;
}

/**
 * Counts the verdicts reviewers gave on targets before they were queued. Read once the items
 * are committed, so a verdict recorded meanwhile is counted here or by its own count (`settle`).
 */
async function countEarlierVerdicts(
  backend: Backend,
  queued: QueuedTargets,
  targets: readonly Target[],
) {
  const { workspace_id, queue_id, feedback_type } = queued;
  const keys = [...new Set(targets.map(targetKey))];
  const verdicts = await backend.read((sql) =>
    reviewersVerdicts(sql, workspace_id, feedback_type, keys),
  );
  for (const verdict of verdicts) {
    await countItemVerdict(backend, {
      workspace_id,
      queue_id,
      item_id: reviewItemId(queue_id, verdict.target_key),
      feedback_type,
      reviewer: verdict.reviewer,
      at: verdict.at,
      now: queued.now.getTime(),
    });
  }
}

async function analyzeAfter(backend: Backend, added: number) {
  if (backend.dialect !== 'postgres' || added < ANALYZE_AFTER) return;
  // Only the tables' owner may; anyone else still gets right answers, planned less well.
  await backend.read((sql) => sql.run('ANALYZE review_items, review_slots')).catch(() => {});
}

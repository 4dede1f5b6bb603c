import type { TurnToJudge } from './load-subject.js';

/** How long one workflow execution's turn snapshot is kept for the evaluators that start after it. */
const KEPT_MS = 5_000;

/**
 * A turn's snapshot read once for one workflow execution's evaluators, not once for each: they
 * start within moments of each other when the run ends, and they judge one snapshot of it. Other
 * targets load fresh every time (an artifact's current version may move on).
 */
export function sharedTurns() {
  const kept = new Map<string, Promise<TurnToJudge | null>>();
  return (key: string, load: () => Promise<TurnToJudge | null>) => {
    let loading = kept.get(key);
    if (loading === undefined) {
      loading = load();
      kept.set(key, loading);
      // A failed load is not kept, so the next evaluator tries again.
      const forget = () => kept.delete(key);
      loading.then(() => setTimeout(forget, KEPT_MS).unref(), forget);
    }
    // Each evaluator gets a copy of its own, so one that changes its subject changes no other's.
    return loading.then((turn) => structuredClone(turn));
  };
}

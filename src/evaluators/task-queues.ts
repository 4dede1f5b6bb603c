// Evaluators with limits of their own judge on their own task queue, so Temporal enforces the
// limits: the queue's worker caps the evaluations in flight, the queue's rate limit their starts.

/** A cap on an evaluator's work, for one that calls a rate-limited endpoint (an LLM API). */
export interface EvaluatorLimit {
  /** Evaluations in flight at once on each worker process (its queue's activity slots). */
  maxConcurrent?: number;
  /** Evaluations started per second across every worker (Temporal's task-queue rate limit). */
  perSecond?: number;
}

/** The task queue of a limited evaluator's `evaluate` activities, beside the app's own queue. */
export function evaluatorTaskQueue(taskQueue: string, evaluatorName: string): string {
  return `${taskQueue}.evaluator.${evaluatorName}`;
}

/** Each limited evaluator's task queue, by evaluator name. */
export function evaluatorTaskQueues(
  taskQueue: string,
  limits: Readonly<Record<string, EvaluatorLimit>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.keys(limits).map((name) => [name, evaluatorTaskQueue(taskQueue, name)]),
  );
}

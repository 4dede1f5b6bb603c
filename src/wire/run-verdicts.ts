import { z } from 'zod';
import {
  evaluatorIdOf,
  type FeedbackRecord,
  type FeedbackTypeRegistry,
  type Run,
  type Target,
  targetKey,
} from '../core/index.js';
import { scoreValues } from '../scores/index.js';
import type { EntityReads, EventLog } from '../store/index.js';
import { WireFeedback, wireFeedback } from './entities.js';

// What was judged for a run, read back with the run (`GET /v1/runs/:runId`, `evalflow runs
// show`): the current feedback on its turn, on its messages and on the artifact versions it
// produced, the same targets as its own evaluation in the ledger, from every rater.

/** A verdict on one of a run's targets: the feedback as the API writes it, and how to read it. */
export const RunVerdict = WireFeedback.extend({
  /** The evaluator version (`name@version`) that gave a JUDGE or HARNESS verdict; else null. */
  evaluator: z.string().nullable(),
  /**
   * The value's category (`pass`): its first categorical field's, as the app declares the type;
   * null when it has none, or when the app no longer declares the type.
   */
  label: z.string().nullable(),
});
export type RunVerdict = z.output<typeof RunVerdict>;

/** The run's verdicts in the order they were first given. */
export async function runVerdicts(
  store: EntityReads & EventLog,
  feedbackTypes: FeedbackTypeRegistry,
  workspaceId: string,
  run: Run,
): Promise<RunVerdict[]> {
  const { messages, artifacts } = await producedBy(store, workspaceId, run);
  const ofRun = new Set([targetKey({ kind: 'turn', run_id: run.run_id }), ...messages]);
  const inThread = await store.feedback(workspaceId, { thread_id: run.thread_id });
  const onArtifacts = await Promise.all(
    artifacts.map((target) => store.feedback(workspaceId, { target })),
  );
  return [...inThread.filter((r) => ofRun.has(r.target_key)), ...onArtifacts.flat()]
    .sort((a, b) => a.seq - b.seq)
    .map((record) => runVerdict(feedbackTypes, record));
}

export const runVerdict = (
  feedbackTypes: FeedbackTypeRegistry,
  record: FeedbackRecord,
): RunVerdict => ({
  ...wireFeedback(record),
  evaluator: record.actor.kind === 'evaluator' ? evaluatorIdOf(record.participant) : null,
  label: labelOf(feedbackTypes, record),
});

/** The first categorical score of the value, read by the type's schema as the app declares it. */
export function labelOf(
  feedbackTypes: FeedbackTypeRegistry,
  record: FeedbackRecord,
): string | null {
  const type = feedbackTypes.get(record.feedback_type);
  if (type === undefined) return null;
  try {
    const scored = scoreValues(type.schema, record.value, { typeName: type.name });
    const category = scored.find(({ config }) => config.dataType === 'CATEGORICAL');
    return category === undefined ? null : String(category.value);
  } catch {
    // A value given under an earlier schema of the type: it keeps its value, without a label.
    return null;
  }
}

/** The keys of the run's messages, and the artifact versions it produced, read page by page. */
async function producedBy(store: EntityReads & EventLog, workspaceId: string, run: Run) {
  const messages: string[] = [];
  const artifacts: Target[] = [];
  const through = await store.head(workspaceId);
  const limit = 500;
  for (let after = 0; ; ) {
    const page = await store.threadPage(workspaceId, run.thread_id, { after, through, limit });
    for (const entry of page) {
      if (entry.kind === 'message' && entry.message.run_id === run.run_id) {
        const { message_id, thread_id } = entry.message;
        messages.push(targetKey({ kind: 'message', message_id, thread_id, run_id: null }));
      }
      if (entry.kind === 'artifact' && entry.artifact.run_id === run.run_id) {
        const { artifact_id, version } = entry.artifact;
        artifacts.push({ kind: 'artifact', artifact_id, version });
      }
    }
    const last = page.at(-1);
    if (page.length < limit || last === undefined) return { messages, artifacts };
    after = last.seq;
  }
}

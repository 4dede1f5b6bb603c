import type { Subject } from '../evaluators/index.js';
import type {
  EntityReads,
  EvaluationEntry,
  EventLog,
  RunWithConversation,
  TraceInbox,
} from '../store/index.js';
import { stepsOfRun } from '../traces/index.js';
import { subjectMessage, threadPages } from './thread-pages.js';
import type { EvaluationTarget } from './types.js';

type SubjectReads = EntityReads & EventLog & Pick<TraceInbox, 'traceSpans'>;

/** A turn's subject with the ledger's entries on the turn in one generation, read together. */
export interface TurnToJudge {
  subject: Subject;
  settled: EvaluationEntry[];
}

/**
 * The snapshot an evaluator judges, or null when the target does not exist (any more). A
 * thread's is the conversation up to `throughSeq` (default: the log's head), read page by page.
 */
export async function loadSubject(
  store: SubjectReads,
  workspaceId: string,
  target: EvaluationTarget,
  throughSeq?: number,
): Promise<Subject | null> {
  switch (target.kind) {
    case 'thread': {
      const thread = await store.thread(workspaceId, target.thread_id);
      if (thread === null) return null;
      const through = throughSeq ?? (await store.head(workspaceId));
      const runs = await store.threadRuns(workspaceId, thread.thread_id);
      return {
        kind: 'thread',
        thread: {
          thread_id: thread.thread_id,
          title: thread.title,
          created_at: thread.created_at,
          ended_at: thread.ended_at ?? null,
        },
        through_seq: through,
        runs: runs.map(({ run_id, status, trace_ids, started_at }) => ({
          run_id,
          status,
          trace_ids,
          started_at,
        })),
        pages: () => threadPages(store, workspaceId, thread.thread_id, through),
      };
    }
    case 'turn': {
      const turn = await store.turn(workspaceId, target.run_id);
      return turn === null ? null : turnSubject(store, workspaceId, turn);
    }
    case 'message': {
      const message = await store.message(workspaceId, target.thread_id, target.message_id);
      return message === null ? null : { kind: 'message', message: subjectMessage(message) };
    }
    case 'artifact': {
      const version = await store.artifact(workspaceId, target.artifact_id, target.version);
      if (version === null) return null;
      const { artifact_id, kind, data } = version;
      return { kind: 'artifact', artifact: { artifact_id, kind, version: version.version, data } };
    }
  }
}

/** A run's turn and what the ledger holds on it in `generation`, or null without the run. */
export async function loadTurnToJudge(
  store: SubjectReads,
  workspaceId: string,
  run_id: string,
  generation: string,
): Promise<TurnToJudge | null> {
  const turn = await store.turn(workspaceId, run_id, generation);
  if (turn === null) return null;
  return { subject: await turnSubject(store, workspaceId, turn), settled: turn.settled };
}

async function turnSubject(
  store: Pick<TraceInbox, 'traceSpans'>,
  workspaceId: string,
  { run, conversation }: RunWithConversation,
): Promise<Subject> {
  return {
    kind: 'turn',
    run: {
      run_id: run.run_id,
      thread_id: run.thread_id,
      status: run.status,
      trace_ids: run.trace_ids,
    },
    messages: conversation.filter((m) => m.run_id === run.run_id).map(subjectMessage),
    steps: (await stepsOfRun(store.traceSpans, workspaceId, run)).steps,
  };
}

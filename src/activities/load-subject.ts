import type { Message } from '../core/index.js';
import type { Subject, SubjectMessage } from '../evaluators/index.js';
import type { Store } from '../store/index.js';
import type { EvaluationTarget } from './types.js';

/** The snapshot an evaluator judges, or null when the target does not exist (any more). */
export async function loadSubject(
  store: Store,
  workspaceId: string,
  target: EvaluationTarget,
): Promise<Subject | null> {
  switch (target.kind) {
    case 'turn': {
      const run = await store.run(workspaceId, target.run_id);
      if (run === null) return null;
      const conversation = (await store.conversation(workspaceId, run.thread_id)) ?? [];
      return {
        kind: 'turn',
        run: {
          run_id: run.run_id,
          thread_id: run.thread_id,
          status: run.status,
          trace_ids: run.trace_ids,
        },
        messages: conversation.filter((m) => m.run_id === run.run_id).map(subjectMessage),
      };
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

const subjectMessage = (m: Message): SubjectMessage => ({
  message_id: m.message_id,
  thread_id: m.thread_id,
  run_id: m.run_id,
  role: m.role,
  content: m.content,
});

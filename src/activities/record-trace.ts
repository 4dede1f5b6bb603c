import { setTimeout } from 'node:timers/promises';
import type { Actor } from '../core/index.js';
import type { Commands, EntityReads, TraceInbox } from '../store/index.js';
import { commandsOfRun, spansOfStored, translateTrace } from '../traces/index.js';
import { activityLogger } from './activity-context.js';
import type { RecordTraceInput, TraceOutcome } from './types.js';

// A trace's stored spans into runs, recorded as a host's lifecycle commands would be. Idempotent:
// each command's id derives from the run's, so a retried activity, or translating again once more
// spans came, appends only what is new. What cannot be recorded (a late span's message for a run
// already ended) is logged with its reason and listed in the outcome.

export function traceActivities(deps: {
  store: Commands & EntityReads & Pick<TraceInbox, 'traceSpans'>;
}) {
  return {
    async recordTrace(input: RecordTraceInput): Promise<TraceOutcome> {
      const { store } = deps;
      if (input.settleMs) await setTimeout(input.settleMs);
      const rows = await store.traceSpans.ofTrace(input.workspaceId, input.traceId);
      const translation = translateTrace(spansOfStored(rows), {
        idle: input.idle,
        ...(input.conversationAttribute
          ? { conversationAttribute: input.conversationAttribute }
          : {}),
      });
      const outcome: TraceOutcome = { runs: [], waiting: translation.waiting, refused: [] };
      for (const run of translation.runs) {
        const actor: Actor =
          input.reporter === 'agent'
            ? { kind: 'agent', thread_id: run.threadId }
            : { kind: 'system', name: 'otlp' };
        if ((await store.thread(input.workspaceId, run.threadId)) === null) {
          await store.execute({
            workspace_id: input.workspaceId,
            actor,
            command: { type: 'create_thread', thread_id: run.threadId },
            command_id: `otlp:thread:${run.threadId}`,
          });
        }
        for (const command of commandsOfRun(run, new Date())) {
          const done = await store.execute({ workspace_id: input.workspaceId, actor, command });
          if (done.type === 'recorded') continue;
          const reason = `${command.type} ${command.command_id}: ${done.message}`;
          outcome.refused.push(reason);
          activityLogger().warn(`trace ${input.traceId}: not recorded: ${reason}`);
        }
        outcome.runs.push({ runId: run.runId, threadId: run.threadId, status: run.status });
      }
      return outcome;
    },
  };
}

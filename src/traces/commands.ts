import type { CommandOf } from '../core/index.js';
import { boundedContent } from './bounded.js';
import type { TraceRun } from './translate.js';

// A translated run as the lifecycle commands a host would send: start the run, post the turn's
// input and the agent's answer, end it. Every command id derives from the run id (itself from
// the trace and span ids), so translating the same spans again appends nothing.

export type RunCommand = CommandOf<'start_run'> | CommandOf<'post_message'> | CommandOf<'end_run'>;

export function commandsOfRun(run: TraceRun): RunCommand[] {
  const id = (what: string) => `otlp:${run.runId}:${what}`;
  const messages: RunCommand[] = run.input.map((content, at) => ({
    type: 'post_message',
    thread_id: run.threadId,
    message_id: `${run.runId}-in-${at}`,
    role: 'user',
    content: boundedContent(content),
    run_id: run.runId,
    command_id: id(`in-${at}`),
  }));
  if (run.output !== null) {
    messages.push({
      type: 'post_message',
      thread_id: run.threadId,
      message_id: `${run.runId}-out`,
      role: 'assistant',
      content: boundedContent(run.output),
      run_id: run.runId,
      command_id: id('out'),
    });
  }
  return [
    {
      type: 'start_run',
      run_id: run.runId,
      thread_id: run.threadId,
      trace_id: run.traceId,
      command_id: id('start'),
    },
    ...messages,
    { type: 'end_run', run_id: run.runId, status: run.status, command_id: id('end') },
  ];
}

import type { CommandOf } from '../core/index.js';
import { boundedContent } from './bounded.js';
import { msOfNs } from './span.js';
import type { TraceRun } from './translate.js';

// A translated run as the lifecycle commands a host would send: start the run, post the turn's
// input and the agent's answer, end it. Every command id derives from the run id (itself from
// the trace and span ids), so translating the same spans again appends nothing. Each command
// carries the spans' time (docs/traces.md#times).

export type RunCommand = CommandOf<'start_run'> | CommandOf<'post_message'> | CommandOf<'end_run'>;

/**
 * The run's times as the commands report them: none before the run's start and none ahead of
 * `now`, so that spans out of order or an agent's clock running fast still have the run recorded
 * (the store refuses an end before its start, or a time far ahead of its clock). A run whose start
 * is OTLP's unset zero reports none: the store's clock stands in for all of them.
 */
function reportedTimes(run: TraceRun, now: Date) {
  if (BigInt(run.startNs) <= 0n)
    return { started: undefined, ended: undefined, answered: undefined };
  const startMs = Math.min(msOfNs(run.startNs), now.getTime());
  const at = (ns: string) =>
    new Date(Math.min(Math.max(msOfNs(ns), startMs), now.getTime())).toISOString();
  return {
    started: at(run.startNs),
    ended: at(run.endNs),
    answered: run.outputNs === null ? undefined : at(run.outputNs),
  };
}

/** The run's commands, its times bounded by `now` (the receiver's clock). */
export function commandsOfRun(run: TraceRun, now: Date): RunCommand[] {
  const id = (what: string) => `otlp:${run.runId}:${what}`;
  const times = reportedTimes(run, now);
  const messages: RunCommand[] = run.input.map((content, at) => ({
    type: 'post_message',
    thread_id: run.threadId,
    message_id: `${run.runId}-in-${at}`,
    role: 'user',
    content: boundedContent(content),
    run_id: run.runId,
    posted_at: times.started,
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
      posted_at: times.answered,
      command_id: id('out'),
    });
  }
  return [
    {
      type: 'start_run',
      run_id: run.runId,
      thread_id: run.threadId,
      trace_id: run.traceId,
      started_at: times.started,
      command_id: id('start'),
    },
    ...messages,
    {
      type: 'end_run',
      run_id: run.runId,
      status: run.status,
      ended_at: times.ended,
      command_id: id('end'),
    },
  ];
}

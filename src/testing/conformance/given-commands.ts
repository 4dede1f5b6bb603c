import { type Actor, type CommandInput, systemActor } from '../../core/index.js';
import type { Given } from './case-file.js';

export interface GivenStep {
  actor: Actor;
  command: CommandInput;
}

/** The commands, as the system (or the rater, agent or giver), that build a case's `given`. */
export function givenCommands(given: Given): GivenStep[] {
  const steps: GivenStep[] = [];
  const system = (command: CommandInput) => steps.push({ actor: systemActor, command });
  const threads = new Set<string>();
  const thread = (thread_id: string, title?: string) => {
    if (threads.has(thread_id)) return;
    threads.add(thread_id);
    system({ type: 'create_thread', thread_id, title });
  };
  for (const t of given.threads) thread(t.id, t.title);
  for (const run of given.runs) {
    thread(run.thread_id);
    system({
      type: 'start_run',
      run_id: run.id,
      thread_id: run.thread_id,
      trace_id: `trace-${run.id}`,
    });
  }
  for (const artifact of given.artifacts) {
    const owner = artifact.thread_id;
    if (owner !== undefined) thread(owner);
    for (let version = 1; version <= artifact.version; version++) {
      steps.push({
        actor: owner === undefined ? systemActor : { kind: 'agent', thread_id: owner },
        command: {
          type: 'put_artifact',
          artifact_id: artifact.id,
          kind: artifact.kind,
          data: artifact.data ?? null,
          trace_id: `trace-${artifact.id}-v${version}`,
        },
      });
    }
    if (artifact.archived) system({ type: 'archive_artifact', artifact_id: artifact.id });
  }
  for (const message of given.messages) {
    thread(message.thread_id);
    system({
      type: 'post_message',
      thread_id: message.thread_id,
      message_id: message.id,
      run_id: message.run_id ?? null,
      role: message.role,
      content: '',
    });
  }
  // Runs pause or end after their messages are posted: a message can only name a live run.
  for (const run of given.runs) {
    if (run.status === 'paused') system({ type: 'pause_run', run_id: run.id });
    if (run.status !== 'running' && run.status !== 'paused') {
      system({ type: 'end_run', run_id: run.id, status: run.status });
    }
  }
  // Threads end last of the lifecycle: a run or message given after would reopen them.
  for (const t of given.threads) if (t.ended) system({ type: 'end_thread', thread_id: t.id });
  for (const rating of given.ratings) {
    const { rater, thread_id, message_id, feedback_type, value } = rating;
    steps.push({
      actor: { kind: 'user', id: rater },
      command: { type: 'rate_message', thread_id, message_id, feedback_type, value },
    });
  }
  for (const { actor, feedback_type, target, value, withdrawn } of given.feedback) {
    steps.push({ actor, command: { type: 'give_feedback', feedback_type, target, value } });
    if (withdrawn) {
      steps.push({ actor, command: { type: 'withdraw_feedback', feedback_type, target } });
    }
  }
  return steps;
}

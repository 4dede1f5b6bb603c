import { describe, expect, it } from 'vitest';
import { type Actor, type Envelope, type Event, replay } from '../../src/core/index.js';

// How the views follow the log, for what a conformance case (one command, then its outcome)
// cannot see: what an event leaves in a view for the commands after it.

const system: Actor = { kind: 'system', name: 'system' };
const agentOf = (thread_id: string): Actor => ({ kind: 'agent', thread_id });

/** Envelopes numbered in order, each by its actor. */
function log(...steps: [Actor, Event][]): Envelope[] {
  return steps.map(([actor, event], i) => ({
    seq: i + 1,
    id: `e${i + 1}`,
    ts: `2026-01-01T00:00:0${i}.000Z`,
    workspace_id: 'w',
    thread_id: null,
    run_id: null,
    actor,
    event,
  }));
}

const put = (version: number, thread_id: string | null): Event => ({
  type: 'artifact_put',
  artifact_id: 'a1',
  kind: 'report',
  version,
  data: { version },
  trace_id: null,
  run_id: null,
  thread_id,
});

describe('runs in the views', () => {
  const started = (trace_id: string | null, resumed = false): Event => ({
    type: 'run_started',
    run_id: 'r1',
    thread_id: 't1',
    trace_id,
    resumed,
  });

  it('list only the traces they were started with, and keep their first start on a resume', () => {
    const paused: Event = { type: 'run_paused', run_id: 'r1', thread_id: 't1', reason: 'wait' };
    const once = replay(log([system, started(null)]));
    expect(once.runs.get('r1')).toMatchObject({
      trace_ids: [],
      started_at: '2026-01-01T00:00:00.000Z',
    });
    const resumed = replay(
      log([system, started(null)], [system, paused], [system, started('tr2', true)]),
    );
    expect(resumed.runs.get('r1')).toEqual({
      run_id: 'r1',
      thread_id: 't1',
      status: 'running',
      trace_ids: ['tr2'],
      pause_reason: null,
      started_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:02.000Z',
    });
  });

  it('change nothing for a pause, end or archive of what they do not hold', () => {
    const state = replay(
      log(
        [system, { type: 'run_paused', run_id: 'r9', thread_id: 't1', reason: null }],
        [system, { type: 'run_ended', run_id: 'r9', thread_id: 't1', status: 'failed' }],
        [system, { type: 'artifact_archived', artifact_id: 'a9' }],
      ),
    );
    expect(state.runs.size).toBe(0);
    expect(state.artifacts.size).toBe(0);
  });
});

describe('artifacts in the views', () => {
  it("stay their creator's thread's when the system puts a later version", () => {
    const state = replay(log([agentOf('t1'), put(1, 't1')], [system, put(2, null)]));
    expect(state.artifacts.get('a1')).toEqual({
      artifact_id: 'a1',
      kind: 'report',
      current_version: 2,
      archived: false,
      thread_id: 't1',
    });
    expect(state.artifactVersions.get('a1@2')).toMatchObject({
      author: 'system:system',
      thread_id: null,
      created_at: '2026-01-01T00:00:01.000Z',
    });
  });

  it("stay the system's when an agent puts a later version", () => {
    const state = replay(log([system, put(1, null)], [agentOf('t2'), put(2, 't2')]));
    expect(state.artifacts.get('a1')?.thread_id).toBeNull();
    expect(state.artifactVersions.get('a1@2')).toMatchObject({
      author: 'agent:t2',
      thread_id: 't2',
    });
  });

  it('stay archived through a version put after the archive', () => {
    const state = replay(
      log(
        [agentOf('t1'), put(1, 't1')],
        [system, { type: 'artifact_archived', artifact_id: 'a1' }],
        [agentOf('t1'), put(2, 't1')],
      ),
    );
    expect(state.artifacts.get('a1')).toMatchObject({ archived: true, current_version: 2 });
  });
});

describe('feedback in the views', () => {
  const given = (source_label?: string): Event => ({
    type: 'feedback_given',
    feedback_type: 'helpfulness',
    target: { kind: 'thread', thread_id: 't1' },
    value: { rating: 4 },
    thread_id: 't1',
    run_id: null,
    source: 'EVAL',
    ...(source_label === undefined ? {} : { source_label }),
  });

  it('keeps the source label the feedback was given with, and null without one', () => {
    const state = replay(log([system, given('provider-eval')], [system, given()]));
    expect(state.feedback.get('e1')?.source_label).toBe('provider-eval');
    expect(state.feedback.get('e2')?.source_label).toBeNull();
  });
});

describe('threads in the views', () => {
  const created: Event = { type: 'thread_created', thread_id: 't1', title: null };
  const ended: Event = { type: 'thread_ended', thread_id: 't1' };

  it('keep when their host ended them, until a new run or message reopens them', () => {
    expect(replay(log([system, created])).threads.get('t1')).not.toHaveProperty('ended_at');
    expect(replay(log([system, created], [system, ended])).threads.get('t1')).toMatchObject({
      ended_at: '2026-01-01T00:00:01.000Z',
    });
    const message: Event = {
      type: 'message_posted',
      message_id: 'm1',
      thread_id: 't1',
      run_id: null,
      role: 'user',
      content: 'again',
    };
    const run: Event = {
      type: 'run_started',
      run_id: 'r1',
      thread_id: 't1',
      trace_id: null,
      resumed: false,
    };
    for (const reopening of [message, run]) {
      const state = replay(log([system, created], [system, ended], [system, reopening]));
      expect(state.threads.get('t1')).toMatchObject({ ended_at: null });
    }
  });

  it("stay as they are for a run's pause or end after the thread ended", () => {
    const state = replay(
      log(
        [system, created],
        [
          system,
          { type: 'run_started', run_id: 'r1', thread_id: 't1', trace_id: null, resumed: false },
        ],
        [system, ended],
        [system, { type: 'run_ended', run_id: 'r1', thread_id: 't1', status: 'completed' }],
      ),
    );
    expect(state.threads.get('t1')?.ended_at).toBe('2026-01-01T00:00:02.000Z');
  });

  it('change nothing when a thread they do not hold ends', () => {
    expect(replay(log([system, ended])).threads.size).toBe(0);
  });
});

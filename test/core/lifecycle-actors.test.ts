import { describe, expect, it } from 'vitest';
import {
  type Actor,
  createFeedbackTypeRegistry,
  decide,
  type Envelope,
  replay,
} from '../../src/core/index.js';

// A thread's facts are its own agent's to report, or the system's: never another thread's agent.

const context = { feedbackTypes: createFeedbackTypeRegistry([]) };
const system: Actor = { kind: 'system', name: 'system' };
const ownAgent: Actor = { kind: 'agent', thread_id: 't1' };
const otherAgent: Actor = { kind: 'agent', thread_id: 't2' };

const state = replay(
  [
    { type: 'thread_created', thread_id: 't1', title: null },
    { type: 'thread_created', thread_id: 't2', title: null },
    { type: 'run_started', run_id: 'r1', thread_id: 't1', trace_id: null, resumed: false },
  ].map(
    (event, i): Envelope => ({
      seq: i + 1,
      id: `e${i + 1}`,
      ts: '2026-01-01T00:00:00.000Z',
      workspace_id: 'w',
      thread_id: event.thread_id,
      run_id: null,
      actor: system,
      event: event as Envelope['event'],
    }),
  ),
);

const commands = [
  {
    command: { type: 'end_thread', thread_id: 't1' },
    refusal: "only thread t1's agent or the system may end it",
  },
  {
    command: { type: 'start_run', run_id: 'r2', thread_id: 't1' },
    refusal: "only thread t1's agent or the system may record its runs",
  },
  {
    command: { type: 'pause_run', run_id: 'r1' },
    refusal: "only thread t1's agent or the system may record its runs",
  },
  {
    command: { type: 'end_run', run_id: 'r1', status: 'completed' },
    refusal: "only thread t1's agent or the system may record its runs",
  },
  {
    command: {
      type: 'post_message',
      thread_id: 't1',
      message_id: 'm1',
      role: 'assistant',
      content: 'hi',
    },
    refusal: "only thread t1's agent or the system may record its assistant messages",
  },
];

describe("a thread's lifecycle", () => {
  it.each(commands)(
    'is refused to another thread’s agent: $command.type',
    ({ command, refusal }) => {
      expect(decide(state, otherAgent, command, context)).toEqual({
        type: 'forbidden',
        message: refusal,
      });
    },
  );

  it.each(commands)(
    'is recorded for its own agent and the system: $command.type',
    ({ command }) => {
      expect(decide(state, ownAgent, command, context).type).toBe('recorded');
      expect(decide(state, system, command, context).type).toBe('recorded');
    },
  );
});

import { describe, expect, it } from 'vitest';
import {
  type Actor,
  CLOCK_SKEW_MS,
  createFeedbackTypeRegistry,
  type DecideContext,
  decide,
  type Envelope,
  type Event,
  recordedTime,
  replay,
  type WorkspaceState,
} from '../../src/core/index.js';

// Reported times (docs/specification.md#reported-times): a run's start and end and a message's
// time by the reporter's clock, checked against the store's and recorded in place of its own.

const system: Actor = { kind: 'system', name: 'system' };
const now = '2026-06-01T12:00:00.000Z';
const context: DecideContext = { feedbackTypes: createFeedbackTypeRegistry([]), now };
const minutes = (n: number) => new Date(Date.parse(now) + n * 60_000).toISOString();

/** Envelopes stamped by the store's clock, `now`, one second apart. */
function log(...events: Event[]): Envelope[] {
  return events.map((event, i) => ({
    seq: i + 1,
    id: `e${i + 1}`,
    ts: new Date(Date.parse(now) + i * 1000).toISOString(),
    workspace_id: 'w',
    thread_id: null,
    run_id: null,
    actor: system,
    event,
  }));
}

const thread: Event = { type: 'thread_created', thread_id: 't1', title: null };
const started = (extra: Partial<Event> = {}): Event =>
  ({
    type: 'run_started',
    run_id: 'r1',
    thread_id: 't1',
    trace_id: null,
    resumed: false,
    ...extra,
  }) as Event;

function decided(state: WorkspaceState, command: Record<string, unknown>) {
  return decide(state, system, command, context);
}

describe('recordedTime', () => {
  const start = { field: 'started_at', what: 'the start' } as const;
  const end = { field: 'ended_at', what: 'the end' } as const;
  const message = { field: 'posted_at', what: 'message m1' } as const;

  it('keeps a past time, in the store’s form (UTC, milliseconds)', () => {
    expect(recordedTime(start, '2020-01-01T01:00:00+01:00', now)).toBe('2020-01-01T00:00:00.000Z');
  });

  it('records a time up to the skew ahead as the store’s clock, and refuses one further ahead', () => {
    expect(recordedTime(start, minutes(CLOCK_SKEW_MS / 60_000), now)).toBe(now);
    expect(recordedTime(end, minutes(6), now)).toMatchObject({
      type: 'validation_failed',
      message: `the end reported at ${minutes(6)} is more than 5 minutes ahead of the store's clock (${now})`,
    });
  });

  it('leaves an absent time absent', () => {
    expect(recordedTime(message, undefined, now)).toBeUndefined();
  });
});

describe('deciding reported times', () => {
  const withRun = (extra: Partial<Event> = {}) => replay(log(thread, started(extra)));

  it('puts the recorded time on the event, and leaves it off when none was reported', () => {
    const state = replay(log(thread));
    const command = { type: 'start_run', run_id: 'r1', thread_id: 't1' };
    expect(decided(state, { ...command, started_at: '2026-05-01T00:00:00Z' })).toMatchObject({
      events: [{ type: 'run_started', started_at: '2026-05-01T00:00:00.000Z' }],
    });
    const plain = decided(state, command);
    expect(plain.type === 'recorded' && 'started_at' in (plain.events[0] ?? {})).toBe(false);
  });

  it('refuses a time without a zone as the command’s shape', () => {
    const state = replay(log(thread));
    expect(
      decided(state, {
        type: 'start_run',
        run_id: 'r1',
        thread_id: 't1',
        started_at: '2026-05-01T00:00:00',
      }),
    ).toMatchObject({ type: 'validation_failed', message: expect.stringContaining('started_at') });
  });

  it('refuses an end or a message of the run reported before the run’s start', () => {
    const state = withRun({ started_at: '2026-05-01T00:00:00.000Z' });
    expect(
      decided(state, {
        type: 'end_run',
        run_id: 'r1',
        status: 'completed',
        ended_at: '2026-04-30T23:59:59Z',
      }),
    ).toMatchObject({
      type: 'validation_failed',
      message:
        "the end reported at 2026-04-30T23:59:59.000Z precedes run r1's start (2026-05-01T00:00:00.000Z)",
    });
    const message = { type: 'post_message', thread_id: 't1', message_id: 'm1', role: 'user' };
    expect(
      decided(state, {
        ...message,
        content: 'hi',
        run_id: 'r1',
        posted_at: '2026-04-30T00:00:00Z',
      }),
    ).toMatchObject({ type: 'validation_failed' });
    expect(
      decided(state, { ...message, content: 'hi', posted_at: '2026-04-30T00:00:00Z' }),
    ).toMatchObject({ type: 'recorded' });
    expect(
      decided(state, {
        type: 'end_run',
        run_id: 'r1',
        status: 'completed',
        ended_at: '2026-05-01T00:00:00Z',
      }),
    ).toMatchObject({ type: 'recorded', events: [{ ended_at: '2026-05-01T00:00:00.000Z' }] });
  });

  it('refuses a resumption reported before the run’s first start', () => {
    const paused: Event = { type: 'run_paused', run_id: 'r1', thread_id: 't1', reason: null };
    const state = replay(log(thread, started({ started_at: '2026-05-01T00:00:00.000Z' }), paused));
    const resume = { type: 'start_run', run_id: 'r1', thread_id: 't1' };
    expect(decided(state, { ...resume, started_at: '2026-04-01T00:00:00Z' })).toMatchObject({
      type: 'validation_failed',
    });
    expect(decided(state, { ...resume, started_at: '2026-05-02T00:00:00Z' })).toMatchObject({
      type: 'recorded',
      events: [{ resumed: true, started_at: '2026-05-02T00:00:00.000Z' }],
    });
  });
});

describe('reported times in the views', () => {
  it('keep a run’s reported start and end, and a message’s time, in place of the envelope’s ts', () => {
    const state = replay(
      log(
        thread,
        started({ started_at: '2026-05-01T00:00:00.000Z' }),
        {
          type: 'message_posted',
          message_id: 'm1',
          thread_id: 't1',
          run_id: 'r1',
          role: 'user',
          content: 'hi',
          posted_at: '2026-05-01T00:00:01.000Z',
        },
        {
          type: 'run_ended',
          run_id: 'r1',
          thread_id: 't1',
          status: 'completed',
          ended_at: '2026-05-01T00:00:09.000Z',
        },
      ),
    );
    expect(state.runs.get('r1')).toMatchObject({
      started_at: '2026-05-01T00:00:00.000Z',
      updated_at: '2026-05-01T00:00:09.000Z',
    });
    expect([...state.messages.values()][0]?.posted_at).toBe('2026-05-01T00:00:01.000Z');
  });

  it('read events without reported times as before: at the envelope’s ts', () => {
    const state = replay(
      log(thread, started(), {
        type: 'run_ended',
        run_id: 'r1',
        thread_id: 't1',
        status: 'completed',
      }),
    );
    expect(state.runs.get('r1')).toMatchObject({
      started_at: '2026-06-01T12:00:01.000Z',
      updated_at: '2026-06-01T12:00:02.000Z',
    });
  });

  it('keep a resumed run’s first start, its resumption the run’s latest change', () => {
    const paused: Event = { type: 'run_paused', run_id: 'r1', thread_id: 't1', reason: null };
    const state = replay(
      log(
        thread,
        started({ started_at: '2026-05-01T00:00:00.000Z' }),
        paused,
        started({ resumed: true, started_at: '2026-05-02T00:00:00.000Z' }),
      ),
    );
    expect(state.runs.get('r1')).toMatchObject({
      started_at: '2026-05-01T00:00:00.000Z',
      updated_at: '2026-05-02T00:00:00.000Z',
    });
  });
});

it('refuses nothing for want of a clock: without `now` a time is recorded as given', () => {
  const state = replay(log(thread));
  const { now: _now, ...clockless } = context;
  expect(
    decide(
      state,
      system,
      { type: 'start_run', run_id: 'r1', thread_id: 't1', started_at: '2999-01-01T00:00:00Z' },
      clockless,
    ),
  ).toMatchObject({ type: 'recorded', events: [{ started_at: '2999-01-01T00:00:00.000Z' }] });
});

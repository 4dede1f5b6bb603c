import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createFeedbackTypeRegistry,
  decide,
  defineFeedbackType,
  type Envelope,
  type Event,
  emptyState,
  isRejection,
  replay,
} from '../../src/core/index.js';

const latency = defineFeedbackType({
  name: 'latency',
  targets: ['turn'],
  source: 'HARNESS',
  schema: z.object({ ms: z.number().min(0) }),
});
const context = { feedbackTypes: createFeedbackTypeRegistry([latency]) };

function stateWithRun() {
  const events: Event[] = [
    { type: 'thread_created', thread_id: 't1', title: null },
    { type: 'run_started', run_id: 'r1', thread_id: 't1', trace_id: 'tr', resumed: false },
  ];
  const envelopes: Envelope[] = events.map((event, i) => ({
    seq: i + 1,
    id: `e${i + 1}`,
    ts: '2026-01-01T00:00:00.000Z',
    workspace_id: 'w',
    thread_id: 't1',
    run_id: null,
    actor: { kind: 'system', name: 'system' },
    event,
  }));
  return replay(envelopes);
}

describe('decide', () => {
  it('never throws, whatever arrives as actor and command', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (actor, command) => {
        const decision = decide(emptyState(), actor, command, context);
        expect(decision.type === 'recorded' || isRejection(decision)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("records an evaluator's feedback under the one source its type is for", () => {
    const decision = decide(
      stateWithRun(),
      { kind: 'evaluator', name: 'timer', version: '1' },
      {
        type: 'give_feedback',
        feedback_type: 'latency',
        target: { kind: 'turn', run_id: 'r1' },
        value: { ms: 120 },
      },
      context,
    );
    expect(decision).toMatchObject({
      type: 'recorded',
      events: [{ source: 'HARNESS', thread_id: 't1', run_id: 'r1' }],
    });
  });

  it('refuses an evaluator claiming JUDGE for a HARNESS type', () => {
    const decision = decide(
      stateWithRun(),
      { kind: 'evaluator', name: 'timer', version: '1' },
      {
        type: 'give_feedback',
        feedback_type: 'latency',
        target: { kind: 'turn', run_id: 'r1' },
        value: { ms: 120 },
        source: 'JUDGE',
      },
      context,
    );
    expect(decision).toEqual({
      type: 'forbidden',
      message: 'latency feedback comes from HARNESS, not JUDGE',
    });
  });

  it('reads a missing actor or command as invalid, and an evaluator without a command as forbidden', () => {
    const command = { type: 'create_thread', thread_id: 't9' };
    for (const actor of [undefined, null, 'system', ['system']]) {
      expect(decide(emptyState(), actor, command, context), String(actor)).toMatchObject({
        type: 'validation_failed',
        message: expect.stringMatching(/^invalid actor: /),
      });
    }
    const evaluator = { kind: 'evaluator', name: 'tone', version: '1' };
    for (const nothing of [undefined, 'give_feedback']) {
      expect(decide(emptyState(), evaluator, nothing, context)).toEqual({
        type: 'forbidden',
        message: 'an evaluator can only give feedback',
      });
    }
  });

  it('refuses input that throws while being read, saying why', () => {
    const throwing = (thrown: unknown) => ({
      get kind(): string {
        throw thrown;
      },
    });
    const command = { type: 'create_thread', thread_id: 't9' };
    expect(decide(emptyState(), throwing(new Error('boom')), command, context)).toEqual({
      type: 'validation_failed',
      message: 'unreadable input: boom',
      errors: [],
    });
    expect(decide(emptyState(), throwing('not an Error'), command, context)).toMatchObject({
      type: 'validation_failed',
      message: 'unreadable input: not an Error',
    });
  });

  it('asks the store for a message id it was not given', () => {
    expect(
      decide(
        stateWithRun(),
        { kind: 'user', id: 'u1' },
        { type: 'post_message', thread_id: 't1', role: 'user', content: '' },
        context,
      ),
    ).toMatchObject({
      type: 'validation_failed',
      message: 'a message needs a message_id to be decided',
    });
  });
});

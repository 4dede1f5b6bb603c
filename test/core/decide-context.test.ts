import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createFeedbackTypeRegistry,
  decide,
  defineFeedbackType,
  type Envelope,
  type Event,
  emptyState,
  replay,
} from '../../src/core/index.js';

// What decide does with what its context leaves out, and what an event carries when a command
// leaves an optional field out.

const review = defineFeedbackType({
  name: 'review',
  targets: ['thread'],
  source: 'HUMAN',
  configName: 'review',
  schema: z.object({ approved: z.boolean() }),
});
const helpfulness = defineFeedbackType({
  name: 'helpfulness',
  targets: ['thread'],
  schema: z.object({ rating: z.int() }),
});
const feedbackTypes = createFeedbackTypeRegistry([review, helpfulness]);

function stateWithThread() {
  const event: Event = { type: 'thread_created', thread_id: 't1', title: null };
  const envelope: Envelope = {
    seq: 1,
    id: 'e1',
    ts: '2026-01-01T00:00:00.000Z',
    workspace_id: 'w',
    thread_id: 't1',
    run_id: null,
    actor: { kind: 'system', name: 'system' },
    event,
  };
  return replay([envelope]);
}
const target = { kind: 'thread', thread_id: 't1' };

describe('decide with a partial context', () => {
  it('finds no score config for HUMAN feedback when the context has no configs at all', () => {
    const decision = decide(
      stateWithThread(),
      { kind: 'reviewer', id: 'rv1' },
      { type: 'give_feedback', feedback_type: 'review', target, value: { approved: true } },
      { feedbackTypes },
    );
    expect(decision).toEqual({
      type: 'not_found',
      entity: 'score config',
      id: 'review',
      message: 'score config review does not exist',
    });
  });

  it('finds no evaluator for a rule when the context deploys none', () => {
    const decision = decide(
      emptyState(),
      { kind: 'system', name: 'system' },
      { type: 'set_evaluation_rule', evaluator: 'tone@1', targets: ['turn'] },
      { feedbackTypes },
    );
    expect(decision).toMatchObject({ type: 'not_found', entity: 'evaluator', id: 'tone@1' });
  });
});

describe('events of commands that leave optional fields out', () => {
  it('carry no source_label key when none was given', () => {
    const decision = decide(
      stateWithThread(),
      { kind: 'user', id: 'u1' },
      { type: 'give_feedback', feedback_type: 'helpfulness', target, value: { rating: 3 } },
      { feedbackTypes },
    );
    expect(decision.type).toBe('recorded');
    const [event] = decision.type === 'recorded' ? decision.events : [];
    expect(event).toBeDefined();
    expect(Object.keys(event ?? {})).not.toContain('source_label');
  });

  it('refuse a message without an id, with no issues to list', () => {
    const decision = decide(
      stateWithThread(),
      { kind: 'user', id: 'u1' },
      { type: 'post_message', thread_id: 't1', role: 'user', content: '' },
      { feedbackTypes },
    );
    expect(decision).toEqual({
      type: 'validation_failed',
      message: 'a message needs a message_id to be decided',
      errors: [],
    });
  });
});

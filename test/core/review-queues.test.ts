import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createFeedbackTypeRegistry,
  type DecideContext,
  decide,
  defineFeedbackType,
  emptyState,
  evolve,
  queuesInForce,
  type ReviewQueue,
  ReviewQueueSchema,
  reviewQueueProblem,
} from '../../src/core/index.js';

const verdict = defineFeedbackType({
  name: 'verdict',
  targets: ['turn', 'message'],
  source: 'HUMAN',
  configName: 'verdict',
  schema: z.object({ pass: z.boolean() }),
});
const stars = defineFeedbackType({
  name: 'stars',
  targets: ['message'],
  schema: z.object({ stars: z.int(), helpful: z.boolean() }),
});
const tone = defineFeedbackType({
  name: 'tone',
  targets: ['turn', 'message'],
  schema: z.object({ polite: z.boolean(), confidence: z.number() }),
});
const context: DecideContext = {
  feedbackTypes: createFeedbackTypeRegistry([verdict, stars, tone]),
  evaluators: {
    targetsOf: (id) => (id.startsWith('tone@') ? ['turn', 'message'] : undefined),
    feedbackTypeOf: (id) => (id.startsWith('tone@') ? 'tone' : undefined),
  },
};
const system = { kind: 'system', name: 'admin' };
const queue = (settings: object = {}): ReviewQueue =>
  ReviewQueueSchema.parse({
    queue_id: 'triage',
    feedback_type: 'verdict',
    target_kinds: ['turn'],
    ...settings,
  });
const set = (settings: object = {}, actor: object = system) =>
  decide(
    emptyState(),
    actor,
    {
      type: 'set_review_queue',
      queue_id: 'triage',
      feedback_type: 'verdict',
      target_kinds: ['turn'],
      ...settings,
    },
    context,
  );

describe('a review queue', () => {
  it('defaults to one reviewer per item, blind, without automated verdicts, a 15-minute lease', () => {
    expect(queue()).toEqual({
      queue_id: 'triage',
      feedback_type: 'verdict',
      instructions: '',
      target_kinds: ['turn'],
      reviewers_per_item: 1,
      blind: true,
      show_automated_verdicts: false,
      lease_seconds: 900,
      routing: [],
      archived: false,
    });
  });

  it('is set by the system alone, as one event that keeps its kinds sorted once', () => {
    expect(set({}, { kind: 'reviewer', id: 'grace' })).toEqual({
      type: 'forbidden',
      message: 'only the system sets review queues',
    });
    const decided = set({ target_kinds: ['turn', 'message', 'turn'], reviewers_per_item: 3 });
    expect(decided).toMatchObject({
      type: 'recorded',
      events: [
        {
          type: 'review_queue_set',
          queue_id: 'triage',
          target_kinds: ['message', 'turn'],
          reviewers_per_item: 3,
        },
      ],
    });
  });

  it('is kept in the workspace’s view with who set it, when, and at which seq', () => {
    const decided = set({ blind: false });
    if (decided.type !== 'recorded') throw new Error(decided.message);
    const state = evolve(emptyState(), {
      seq: 4,
      id: 'e4',
      ts: '2026-05-01T09:00:00.000Z',
      workspace_id: 'w',
      thread_id: null,
      run_id: null,
      actor: { kind: 'system', name: 'admin' },
      event: decided.events[0] as never,
    });
    expect(state.reviewQueues.get('triage')).toMatchObject({
      blind: false,
      set_by: 'system:admin',
      set_at: '2026-05-01T09:00:00.000Z',
      seq: 4,
    });
  });

  it('refuses settings out of their bounds when the command is parsed', () => {
    for (const settings of [
      { reviewers_per_item: 0 },
      { reviewers_per_item: 51 },
      { lease_seconds: 29 },
      { lease_seconds: 86_401 },
      { target_kinds: [] },
      { target_kinds: ['page'] },
      { routing: [{ kind: 'completed_runs', sample_rate: 2 }] },
      { routing: [{ kind: 'coin_flip' }] },
      { routing: [{ kind: 'disagreement', evaluators: ['tone@1'], field: 'polite' }] },
    ]) {
      expect(set(settings).type, JSON.stringify(settings)).toBe('validation_failed');
    }
  });

  it('names a reviewers’ feedback type, and only kinds it is given on', () => {
    expect(set({ feedback_type: 'nope' })).toMatchObject({
      type: 'not_found',
      entity: 'feedback type',
      id: 'nope',
    });
    expect(set({ feedback_type: 'stars', target_kinds: ['message'] })).toMatchObject({
      type: 'validation_failed',
      message:
        "stars feedback is not given by reviewers: a review queue's type is HUMAN, with a score config (configName)",
    });
    expect(set({ target_kinds: ['artifact'] })).toMatchObject({
      type: 'validation_failed',
      message: 'verdict feedback is given on message, turn, not on artifact',
    });
  });

  it('routes only from deployed evaluator versions and fields that exist, onto kinds it takes', () => {
    const refusal = (routing: object, extra: object = {}) => {
      const decided = set({ routing: [routing], ...extra });
      return decided.type === 'recorded' ? null : decided;
    };
    expect(refusal({ kind: 'completed_runs', sample_rate: 0.1 })).toBeNull();
    expect(
      refusal({ kind: 'completed_runs', sample_rate: 0.1 }, { target_kinds: ['message'] }),
    ).toMatchObject({
      message:
        'routing[0]: completed_runs puts turn targets in the queue, which takes only message',
    });
    expect(
      refusal({ kind: 'verdict_at_most', evaluator: 'judge@1', field: 'score', at_most: 0 }),
    ).toMatchObject({
      type: 'not_found',
      entity: 'evaluator',
      message: 'routing[0]: evaluator judge@1 does not exist',
    });
    expect(
      refusal({ kind: 'verdict_equals', evaluator: 'tone@1', field: 'rude', equals: true }),
    ).toMatchObject({ message: "routing[0]: tone@1's feedback type tone has no field rude" });
    expect(refusal({ kind: 'confidence_below', evaluator: 'tone@2', below: 0.5 })).toBeNull();
    expect(
      refusal(
        { kind: 'rating_at_most', feedback_type: 'stars', field: 'stars', at_most: 2 },
        { target_kinds: ['turn'] },
      ),
    ).toMatchObject({
      message: 'routing[0]: rating stars puts message targets in the queue, which takes only turn',
    });
    expect(
      refusal(
        { kind: 'rating_at_most', feedback_type: 'stars', field: 'stars', at_most: 2 },
        { target_kinds: ['message'] },
      ),
    ).toBeNull();
    expect(
      refusal({ kind: 'disagreement', evaluators: ['tone@1', 'tone@1'], field: 'polite' }),
    ).toMatchObject({ message: 'routing[0]: disagreement names tone@1 twice: name two versions' });
    expect(
      refusal({ kind: 'disagreement', evaluators: ['tone@1', 'tone@2'], field: 'polite' }),
    ).toBeNull();
  });

  it('is checked by the same rule outside a command (the config file’s queues)', () => {
    expect(reviewQueueProblem(queue({ feedback_type: 'stars' }), context)?.type).toBe(
      'validation_failed',
    );
    expect(reviewQueueProblem(queue(), context)).toBeNull();
  });
});

describe('the queues in force', () => {
  it('are the defaults, each replaced by the workspace’s own queue of that id, sorted', () => {
    const defaults = [queue({ queue_id: 'b' }), queue({ queue_id: 'a', blind: true })];
    const own = [{ ...queue({ queue_id: 'a', blind: false }), set_by: 'x', set_at: 't', seq: 1 }];
    expect(queuesInForce(defaults, own).map((q) => [q.queue_id, q.blind])).toEqual([
      ['a', false],
      ['b', true],
    ]);
  });
});

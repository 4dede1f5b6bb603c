import { describe, expect, it } from 'vitest';
import {
  type Actor,
  type Envelope,
  type Event,
  type ReviewQueue,
  ReviewQueueSchema,
} from '../../src/core/index.js';
import { isSampled } from '../../src/evaluators/index.js';
import { lookupKey, route, routingNeeds, settlementOf } from '../../src/relay/index.js';

// The routing decision alone: which events put which targets into which queues, and which settle
// a reviewer's slot. Pure, so every rule is tested here without a store.

const queue = (settings: object): ReviewQueue =>
  ReviewQueueSchema.parse({
    queue_id: 'q',
    feedback_type: 'verdict',
    target_kinds: ['turn', 'message'],
    ...settings,
  });
let seq = 0;
const envelope = (actor: Actor, event: Event): Envelope => ({
  seq: ++seq,
  id: `e${seq}`,
  ts: '2026-05-01T09:00:00.000Z',
  workspace_id: 'w',
  thread_id: null,
  run_id: null,
  actor,
  event,
});
const ended = (run_id: string, status: 'completed' | 'failed' = 'completed') =>
  envelope({ kind: 'system', name: 'host' }, { type: 'run_ended', run_id, thread_id: 't', status });
const message = { kind: 'message' as const, thread_id: 't', message_id: 'm1', run_id: 'r1' };
const feedback = (
  actor: Actor,
  feedback_type: string,
  value: Record<string, unknown>,
  target = message,
) =>
  envelope(actor, {
    type: 'feedback_given',
    feedback_type,
    target,
    value,
    thread_id: 't',
    run_id: 'r1',
    source: actor.kind === 'user' ? 'USER' : actor.kind === 'reviewer' ? 'HUMAN' : 'JUDGE',
  });
const ada: Actor = { kind: 'user', id: 'ada' };
const judge = (version: string): Actor => ({ kind: 'evaluator', name: 'judge', version });

describe('routing', () => {
  it('samples completed runs deterministically, nested across rates, and never other endings', () => {
    const runs = Array.from({ length: 400 }, (_, i) => `r${i}`);
    const at = (rate: number) =>
      runs.filter(
        (run) =>
          route([queue({ routing: [{ kind: 'completed_runs', sample_rate: rate }] })], ended(run))
            .length > 0,
      );
    const tenth = at(0.1);
    expect(tenth.length).toBeGreaterThan(20);
    expect(tenth.length).toBeLessThan(70);
    expect(at(0.1)).toEqual(tenth);
    expect(at(0.5).filter((run) => tenth.includes(run))).toEqual(tenth);
    expect(at(1)).toHaveLength(400);
    expect(tenth.every((run) => isSampled('review-queue:q', `turn:${run}`, 0.1))).toBe(true);
    const all = queue({ routing: [{ kind: 'completed_runs', sample_rate: 1 }] });
    expect(route([all], ended('r1', 'failed'))).toEqual([]);
    expect(route([all], ended('r1'))).toEqual([
      { queue_id: 'q', target: { kind: 'turn', run_id: 'r1' }, rule: 'completed_runs' },
    ]);
  });

  it('puts a user’s rating at or below a value in the queue, by its field, false as 0', () => {
    const low = queue({
      routing: [{ kind: 'rating_at_most', feedback_type: 'stars', field: 'stars', at_most: 2 }],
    });
    expect(route([low], feedback(ada, 'stars', { stars: 2 }))).toEqual([
      { queue_id: 'q', target: message, rule: 'rating_at_most' },
    ]);
    expect(route([low], feedback(ada, 'stars', { stars: 3 }))).toEqual([]);
    expect(route([low], feedback(ada, 'other', { stars: 1 }))).toEqual([]);
    expect(route([low], feedback(judge('1'), 'stars', { stars: 1 }))).toEqual([]);
    expect(route([low], feedback(ada, 'stars', { stars: 'one' }))).toEqual([]);
    const unhelpful = queue({
      routing: [{ kind: 'rating_at_most', feedback_type: 'stars', field: 'helpful', at_most: 0 }],
    });
    expect(route([unhelpful], feedback(ada, 'stars', { helpful: false }))).toHaveLength(1);
    expect(route([unhelpful], feedback(ada, 'stars', { helpful: true }))).toEqual([]);
  });

  it('routes an evaluator version’s verdict by a field’s value, at most a value, or its confidence', () => {
    const equals = queue({
      routing: [{ kind: 'verdict_equals', evaluator: 'judge@2', field: 'passed', equals: false }],
    });
    expect(route([equals], feedback(judge('2'), 'judged', { passed: false }))).toHaveLength(1);
    expect(route([equals], feedback(judge('2'), 'judged', { passed: true }))).toEqual([]);
    expect(route([equals], feedback(judge('1'), 'judged', { passed: false }))).toEqual([]);
    const atMost = queue({
      routing: [{ kind: 'verdict_at_most', evaluator: 'judge@2', field: 'score', at_most: 0.3 }],
    });
    expect(route([atMost], feedback(judge('2'), 'judged', { score: 0.3 }))).toHaveLength(1);
    expect(route([atMost], feedback(judge('2'), 'judged', { score: 0.31 }))).toEqual([]);
    const unsure = queue({
      routing: [{ kind: 'confidence_below', evaluator: 'judge@2', below: 0.5 }],
    });
    expect(route([unsure], feedback(judge('2'), 'judged', { confidence: 0.49 }))).toHaveLength(1);
    expect(route([unsure], feedback(judge('2'), 'judged', { confidence: 0.5 }))).toEqual([]);
    expect(route([unsure], feedback(judge('2'), 'judged', {}))).toEqual([]);
  });

  it('routes two evaluator versions’ disagreement once the second verdict is in', () => {
    const disagree = queue({
      routing: [{ kind: 'disagreement', evaluators: ['judge@1', 'judge@2'], field: 'passed' }],
    });
    const second = feedback(judge('2'), 'judged', { passed: false });
    expect(routingNeeds([disagree], second)).toEqual([
      { participant: 'evaluator:judge@1', target: message },
    ]);
    const earlier = (values: Record<string, unknown>[]) =>
      new Map([[lookupKey({ participant: 'evaluator:judge@1', target: message }), values]]);
    expect(route([disagree], second, earlier([{ passed: true }]))).toEqual([
      { queue_id: 'q', target: message, rule: 'disagreement' },
    ]);
    expect(route([disagree], second, earlier([{ passed: false }]))).toEqual([]);
    expect(route([disagree], second, earlier([]))).toEqual([]);
    expect(routingNeeds([disagree], feedback(judge('3'), 'judged', { passed: true }))).toEqual([]);
  });

  it('routes only into live queues that take the target’s kind, each target once per queue', () => {
    const rules = [
      { kind: 'completed_runs', sample_rate: 1 },
      { kind: 'completed_runs', sample_rate: 1 },
    ];
    expect(route([queue({ routing: rules })], ended('r1'))).toHaveLength(1);
    expect(route([queue({ routing: rules, archived: true })], ended('r1'))).toEqual([]);
    expect(route([queue({ routing: rules, target_kinds: ['message'] })], ended('r1'))).toEqual([]);
    const two = [queue({ routing: rules }), queue({ queue_id: 'p', routing: rules })];
    expect(route(two, ended('r1')).map((r) => r.queue_id)).toEqual(['q', 'p']);
  });
});

describe('settling', () => {
  it('settles a reviewer’s verdict of a queue’s type, in every queue of that type, archived ones too', () => {
    const queues = [
      queue({}),
      queue({ queue_id: 'old', archived: true }),
      queue({ queue_id: 'x', feedback_type: 'other' }),
    ];
    expect(
      settlementOf(queues, feedback({ kind: 'reviewer', id: 'grace' }, 'verdict', { pass: true })),
    ).toEqual({
      reviewer: 'reviewer:grace',
      feedback_type: 'verdict',
      target_key: 'message:t/m1',
      queue_ids: ['q', 'old'],
    });
    expect(settlementOf(queues, feedback(ada, 'verdict', { pass: true }))).toBeNull();
    expect(settlementOf(queues, feedback({ kind: 'reviewer', id: 'g' }, 'none', {}))).toBeNull();
  });
});

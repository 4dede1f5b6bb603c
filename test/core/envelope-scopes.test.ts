import { describe, expect, it } from 'vitest';
import { type Event, ReviewQueueSchema, scopeOf } from '../../src/core/index.js';

// The thread and run every event's envelope carries, so a consumer places an event without
// reading another: run and message events name both, a thread's creation its thread, and
// artifact and rule events neither (they are workspace-scoped).
const target = { kind: 'thread', thread_id: 't1' } as const;
const identity = { id: 'e1', ts: '2026-01-01T00:00:00.000Z' };
const scoped: [Event, { thread_id: string | null; run_id: string | null }][] = [
  [
    { type: 'thread_created', thread_id: 't1', title: null },
    { thread_id: 't1', run_id: null },
  ],
  [
    { type: 'run_started', run_id: 'r1', thread_id: 't1', trace_id: null, resumed: false },
    { thread_id: 't1', run_id: 'r1' },
  ],
  [
    { type: 'run_paused', run_id: 'r1', thread_id: 't1', reason: null },
    { thread_id: 't1', run_id: 'r1' },
  ],
  [
    { type: 'run_ended', run_id: 'r1', thread_id: 't1', status: 'completed' },
    { thread_id: 't1', run_id: 'r1' },
  ],
  [
    {
      type: 'message_posted',
      message_id: 'm1',
      thread_id: 't1',
      run_id: 'r1',
      role: 'user',
      content: '',
    },
    { thread_id: 't1', run_id: 'r1' },
  ],
  [
    {
      type: 'feedback_given',
      feedback_type: 'helpfulness',
      target,
      value: {},
      thread_id: 't1',
      run_id: null,
      source: 'USER',
    },
    { thread_id: 't1', run_id: null },
  ],
  [
    {
      type: 'feedback_withdrawn',
      feedback_type: 'review',
      target,
      thread_id: 't1',
      run_id: null,
      identity,
    },
    { thread_id: 't1', run_id: null },
  ],
  [
    {
      type: 'rating_deleted',
      feedback_type: 'helpfulness',
      message_id: 'm1',
      thread_id: 't1',
      run_id: 'r1',
      rating: identity,
    },
    { thread_id: 't1', run_id: 'r1' },
  ],
  [
    {
      type: 'artifact_put',
      artifact_id: 'a1',
      kind: 'report',
      version: 1,
      data: null,
      trace_id: null,
      run_id: 'r1',
      thread_id: 't1',
    },
    { thread_id: null, run_id: null },
  ],
  [
    { type: 'artifact_archived', artifact_id: 'a1' },
    { thread_id: null, run_id: null },
  ],
  [
    {
      type: 'evaluation_rule_set',
      evaluator: 'tone@1',
      targets: ['turn'],
      sample_rate: 1,
      filter: {},
      enabled: true,
    },
    { thread_id: null, run_id: null },
  ],
  [
    { type: 'thread_ended', thread_id: 't1' },
    { thread_id: 't1', run_id: null },
  ],
  [
    {
      type: 'evaluator_promoted',
      evaluator: 'judge@2',
      replacing: null,
      rules: [],
      min_kappa: 0.6,
      min_matched: 30,
      evidence: {
        compared: 'judge@2',
        matched: 40,
        kappa: 0.8,
        interval: null,
        raw_agreement: 0.9,
        against: 'reviewers:verdict.pass',
        mapping: {},
        as_of_seq: 12,
        replaced: null,
      },
      shortfalls: [],
      forced: false,
    },
    { thread_id: null, run_id: null },
  ],
  [
    {
      type: 'score_recorded',
      trace_id: 'tr',
      name: 'steps',
      value: 3,
      source: 'HARNESS',
      config_id: null,
      source_label: null,
      comment: null,
    },
    { thread_id: null, run_id: null },
  ],
  [
    {
      type: 'review_queue_set',
      ...ReviewQueueSchema.parse({
        queue_id: 'triage',
        feedback_type: 'verdict',
        target_kinds: ['turn'],
      }),
    },
    { thread_id: null, run_id: null },
  ],
];

describe('scopeOf', () => {
  it.each(scoped)('scopes %o to %o', (event, scope) => {
    expect(scopeOf(event)).toStrictEqual(scope);
  });
});

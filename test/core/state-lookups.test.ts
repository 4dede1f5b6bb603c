import { describe, expect, it } from 'vitest';
import {
  type Actor,
  emptyState,
  type FeedbackRecord,
  ratingsOn,
  targetKey,
} from '../../src/core/index.js';

// A store hands decide the rows it loaded, in whatever order its query gave them; the lookups
// must not depend on that order.

const target = { kind: 'message', message_id: 'm1', thread_id: 't1', run_id: null } as const;

function rating(id: string, seq: number, rater: string): FeedbackRecord {
  const actor: Actor = { kind: 'user', id: rater };
  return {
    id,
    seq,
    ts: `2026-01-01T00:00:0${seq}.000Z`,
    feedback_type: 'helpfulness',
    target,
    target_key: targetKey(target),
    value: { rating: seq },
    thread_id: 't1',
    run_id: null,
    source: 'USER',
    source_label: null,
    participant: `user:${rater}`,
    actor,
    rating: true,
    updated_seq: seq,
    updated_at: `2026-01-01T00:00:0${seq}.000Z`,
  };
}

describe('ratingsOn', () => {
  it('lists the ratings of a message oldest first, however the state holds them', () => {
    const state = emptyState();
    for (const record of [rating('e9', 9, 'u3'), rating('e2', 2, 'u1'), rating('e5', 5, 'u2')]) {
      state.feedback.set(record.id, record);
    }
    expect(ratingsOn(state, 't1', 'm1').map((record) => record.seq)).toEqual([2, 5, 9]);
  });

  it('leaves out feedback on the message that is no rating', () => {
    const state = emptyState();
    state.feedback.set('e1', { ...rating('e1', 1, 'u1'), rating: false });
    state.feedback.set('e2', rating('e2', 2, 'u2'));
    expect(ratingsOn(state, 't1', 'm1').map((record) => record.id)).toEqual(['e2']);
  });
});
